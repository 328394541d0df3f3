import { api } from '@/api/api';
import { refreshSessionCompanies } from '@/api/companiesApi';
import type {
  CompanyBody,
  CompanyDay,
  CompanyDayBody,
  CompanyDaySaved,
  CompanyDetail,
  CompanyFilter,
  CompanyPage,
  CompanyWritten,
  GalleryImageDto,
  GallerySaved,
} from './types';

const FILTER = { type: 'Company', id: 'FILTER' } as const;
const hoursTag = (id: number) => ({ type: 'Company' as const, id: `HOURS-${id}` });
const galleryTag = (id: number) => ({ type: 'Company' as const, id: `GALLERY-${id}` });

/** Refreshes the session's company list once a save is answered (spec 02 §7 'Companies'). */
async function afterSave(dispatch: Parameters<typeof refreshSessionCompanies>[0], fulfilled: Promise<unknown>) {
  try {
    await fulfilled;
    refreshSessionCompanies(dispatch);
  } catch {
    // Reported by the base query; nothing changed.
  }
}

export const companyApi = api.injectEndpoints({
  endpoints: (build) => ({
    filterCompanies: build.query<CompanyPage, CompanyFilter>({
      query: (params) => ({ url: 'company/filter', params }),
      providesTags: [FILTER],
    }),
    getCompany: build.query<CompanyDetail, number>({
      query: (id) => `company/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'Company', id }],
    }),
    createCompany: build.mutation<CompanyWritten, { body: CompanyBody; idempotencyKey: string }>({
      query: ({ body, idempotencyKey }) => ({
        url: 'company',
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: [FILTER],
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => afterSave(dispatch, queryFulfilled),
    }),
    updateCompany: build.mutation<CompanyWritten, { id: number; body: CompanyBody }>({
      query: ({ id, body }) => ({ url: `company/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [FILTER, { type: 'Company', id }]),
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => afterSave(dispatch, queryFulfilled),
    }),
    getCompanyHours: build.query<CompanyDay[], number>({
      query: (id) => `company-working-hours/${id}`,
      providesTags: (_result, _error, id) => [hoursTag(id)],
    }),
    setCompanyDay: build.mutation<CompanyDaySaved, { id: number; body: CompanyDayBody }>({
      query: ({ id, body }) => ({ url: `company-working-hours/${id}/day`, method: 'PUT', body }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [hoursTag(id)]),
    }),
    getGallery: build.query<GalleryImageDto[], number>({
      query: (id) => `gallery-company/${id}`,
      providesTags: (_result, _error, id) => [galleryTag(id)],
    }),
    // Multipart: a FormData body, so fetch sets the boundary's Content-Type itself.
    saveGallery: build.mutation<GallerySaved, { id: number; body: FormData }>({
      query: ({ id, body }) => ({ url: `gallery-company/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [galleryTag(id)]),
    }),
  }),
});

export const {
  useFilterCompaniesQuery,
  useGetCompanyQuery,
  useCreateCompanyMutation,
  useUpdateCompanyMutation,
  useGetCompanyHoursQuery,
  useSetCompanyDayMutation,
  useGetGalleryQuery,
  useSaveGalleryMutation,
} = companyApi;
