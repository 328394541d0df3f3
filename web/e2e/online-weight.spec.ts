import { expect, test } from './fixtures';
import { ADMIN, CENTRO, apiToken, companyId } from './support';

/**
 * The public booking page's code weight (document, scripts, stylesheets), a budget the suite
 * can hold on any machine: Lighthouse's score moves with the machine's load
 * (docs/online-booking.md records it measured by hand), the bytes a phone downloads do not.
 * 213 KiB when the budget was set. The unit's photos are the shop's content, not counted.
 */
const BUDGET_BYTES = 256 * 1024;
/** Chunks only the staff app needs: the public page must not download them. */
const STAFF_CHUNKS = /\/(AgendaPage|HomePage|charts|staffApi|timeline|ListPage|HistoryList)-[^/]*\.(js|css)$/;

test('the public booking page downloads compressed files within its budget, and none of the staff app', async ({
  page,
  request,
}) => {
  const token = await apiToken(request, ADMIN.email);
  const idCompany = await companyId(request, token, CENTRO);
  await page.setViewportSize({ width: 390, height: 844 });
  const downloads: { url: string; type: string; bytes: number; encoding: string }[] = [];
  page.on('requestfinished', async (finished) => {
    const [sizes, response] = await Promise.all([finished.sizes(), finished.response()]);
    downloads.push({
      url: new URL(finished.url()).pathname,
      type: finished.resourceType(),
      bytes: sizes.responseBodySize,
      encoding: response?.headers()['content-encoding'] ?? '',
    });
  });
  await page.goto(`/agendar/${idCompany}`, { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { level: 1, name: CENTRO })).toBeVisible();

  const files = downloads.filter((d) => d.type === 'script' || d.type === 'stylesheet' || d.type === 'document');
  expect(files.filter((d) => d.type === 'script').length).toBeGreaterThan(0);
  expect(files.filter((d) => d.encoding !== 'gzip').map((d) => d.url), 'sent uncompressed').toEqual([]);
  expect(downloads.filter((d) => STAFF_CHUNKS.test(d.url)).map((d) => d.url), "the staff app's chunks").toEqual([]);
  const total = files.reduce((sum, d) => sum + d.bytes, 0);
  const list = files.map((d) => `${d.bytes}\t${d.url}`).join('\n');
  expect(total, `bytes downloaded:\n${list}`).toBeLessThanOrEqual(BUDGET_BYTES);
});
