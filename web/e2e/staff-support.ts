import { expect, type APIRequestContext, type Page } from '@playwright/test';

// Helpers of profile.spec.ts: read and restore the barber's own data through the API, so
// the long-lived database stays as the agenda tests expect it.

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

export type Json = Record<string, unknown>;

export async function getJson<T = Json>(request: APIRequestContext, token: string, url: string): Promise<T> {
  const response = await request.get(`/api/${url}`, { headers: auth(token) });
  expect(response.ok(), await response.text()).toBeTruthy();
  return (await response.json()) as T;
}

/** PUT professional/my-profile with the answer of GET professional/my-profile. */
export async function restoreMyProfile(request: APIRequestContext, token: string, profile: Json) {
  const response = await request.put('/api/professional/my-profile', {
    headers: auth(token),
    data: {
      name: profile.Name,
      email: profile.Email,
      cpf: profile.Cpf,
      phone: profile.Phone,
      whatsApp: profile.WhatsApp,
      birthDate: profile.BirthDate,
      cep: profile.Cep,
      street: profile.Street,
      number: profile.Number,
      complement: profile.Complement ?? '',
      district: profile.District,
      city: profile.City,
      state: profile.State,
    },
  });
  expect(response.ok(), await response.text()).toBeTruthy();
}

/** PUT professional-working-hours/my-profile/day with a day as GET answers it. */
export async function restoreMyDay(request: APIRequestContext, token: string, day: Json) {
  const response = await request.put('/api/professional-working-hours/my-profile/day', {
    headers: auth(token),
    data: {
      weekDay: day.WeekDay,
      firstStart: day.FirstStart,
      firstEnd: day.FirstEnd,
      secondStart: day.SecondStart,
      secondEnd: day.SecondEnd,
      thirdStart: day.ThirdStart,
      thirdEnd: day.ThirdEnd,
    },
  });
  expect(response.ok(), await response.text()).toBeTruthy();
}

/** PUT professional-service/{id}/my-profile with a service as GET answers it. */
export async function restoreMyService(request: APIRequestContext, token: string, service: Json) {
  const response = await request.put(`/api/professional-service/${service.IdCompanyProfessionalService}/my-profile`, {
    headers: auth(token),
    data: { idService: service.IdService, value: service.Value, time: service.Time, status: service.Status },
  });
  expect(response.ok(), await response.text()).toBeTruthy();
}

/**
 * Screenshots at 1280 and 390 px wide into test-results/<name>-<width>.png; full page, except
 * for modals (a fixed backdrop over a scrolled page shows only the viewport's part).
 */
export async function screenshots(page: Page, name: string, fullPage = true) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: `test-results/${name}-${width}.png`, fullPage });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
