import { expect, test } from './fixtures';

// The API documents page renders both documents the services build from their code
// (docs/api.md), with nothing loaded from another origin.
test('the API documents page lists the operations of both APIs', async ({ page, baseURL }) => {
  const outside: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && url.origin !== new URL(baseURL ?? '').origin) outside.push(url.href);
  });
  await page.goto('/docs/api');
  await expect(page.getByRole('heading', { name: 'Documentação da API' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Navalha command API/ })).toBeVisible();

  const dayOff = page.locator('details.apidocs-operation', { hasText: 'Schedule a professional' });
  await expect(dayOff.locator('.apidocs-path')).toHaveText('/day-off');
  await dayOff.locator('summary').first().click();
  await expect(dayOff.getByRole('cell', { name: 'Idempotency-Key' })).toBeVisible();
  await expect(dayOff.getByRole('cell', { name: 'idProfessional' })).toBeVisible();
  await expect(dayOff.locator('.apidocs-status', { hasText: '422' })).toBeVisible();
  await page.screenshot({ path: 'test-results/api-docs-command.png', fullPage: false });

  await page.getByRole('button', { name: 'query-api (leitura)' }).click();
  await expect(page.getByRole('heading', { name: /Navalha query API/ })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Filtrar operações' }).fill('/holiday/filter');
  const holidays = page.locator('details.apidocs-operation');
  await expect(holidays).toHaveCount(1);
  await holidays.locator('summary').first().click();
  await holidays.getByText('object', { exact: true }).click();
  await expect(holidays.getByRole('cell', { name: 'IdHoliday *' })).toBeVisible();
  // The page size's bounds come from the code's constants.
  await expect(holidays.getByText(/1 ≤ n ≤ 100/)).toBeVisible();
  await page.screenshot({ path: 'test-results/api-docs-query.png', fullPage: false });

  expect(outside).toEqual([]);
});
