import { favoritesLoaded } from '@/state/sessionSlice';
import { api } from './api';
import type { FavoriteMenu, Starred } from './wire';

// Shared by the dashboard shell (and any screen that shows favourites).
export const favoritesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getFavorites: build.query<FavoriteMenu[], void>({
      query: () => 'professional-favorite-menu/',
      providesTags: [{ type: 'Favorite', id: 'LIST' }],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          // The fetched list replaces the stored (persisted) one.
          dispatch(favoritesLoaded(data));
        } catch {
          // Reported by the base query.
        }
      },
    }),
    saveFavorite: build.mutation<Starred, string>({
      query: (slug) => ({ url: 'professional-favorite-menu/', method: 'POST', body: { slug } }),
      invalidatesTags: [{ type: 'Favorite', id: 'LIST' }],
    }),
    deleteFavorite: build.mutation<void, string>({
      query: (slug) => ({
        url: `professional-favorite-menu/slug/${encodeURIComponent(slug)}`,
        method: 'DELETE',
      }),
      invalidatesTags: [{ type: 'Favorite', id: 'LIST' }],
    }),
  }),
});

export const { useGetFavoritesQuery, useSaveFavoriteMutation, useDeleteFavoriteMutation } =
  favoritesApi;
