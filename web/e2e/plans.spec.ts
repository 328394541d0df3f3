import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { now, stamp } from './clock';
import { ADMIN, apiToken, createClient, PASSWORD, signInAs, toast } from './support';
import { checkoutMailTo, createPlan, PNG, screenshots, sectionScreenshots } from './plans-support';

// Plans ('Planos', spec 02 §2, §5, §7) against the running system. Every run makes its own
// plan and client with unique names: the database outlives the tests.

const ATTENDANT = 'atendente@navalha.dev';
const LIST = '/dashboard/subscription-detail-list';

const shortStamp = () => stamp().slice(-7);

async function openNewPlan(page: Page) {
  await page.goto(LIST);
  await expect(page.getByRole('heading', { name: 'Planos' })).toBeVisible();
  await page.getByRole('link', { name: 'Novo plano' }).click();
  await expect(page.getByRole('heading', { name: 'Novo plano' })).toBeVisible();
}

test.describe('plans as ADMIN', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('creates a plan with an image and two services, finds it and sends its link', async ({ page, request, context }) => {
    const planName = `Clube Teste ${shortStamp()}`;
    const token = await apiToken(request, ADMIN.email);
    const clientName = `Cliente Plano ${shortStamp()} Souza`;
    await createClient(request, token, clientName);
    // WhatsApp opens wa.me in a new tab: answered here, the test has no internet.
    await context.route('https://wa.me/**', (route) => route.fulfill({ body: 'whatsapp' }));

    await signInAs(page, ADMIN.email);
    await openNewPlan(page);
    await expect(page.getByRole('tab', { name: 'Serviços' })).toHaveCount(0);

    // Every message of an empty form (spec 02 §5).
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByText('Informe o nome do plano')).toBeVisible();
    await expect(page.getByText('Digite a descrição.')).toBeVisible();
    await expect(page.getByText('Digite o valor.')).toBeVisible();
    await expect(page.getByText('Informe pelo menos uma empresa')).toBeVisible();
    await expect(page.getByText('Digite a quantidade')).toBeVisible();
    await expect(page.getByText('Informe o método de pagamento.')).toBeVisible();
    await expect(page.getByText('Digite uma data válida')).toHaveCount(2);

    await page.getByLabel('Nome do plano').fill(planName);
    await page.getByLabel('Descrição').fill('Cortes e barba com desconto o mês inteiro');
    await page.getByLabel('Valor', { exact: true }).fill('12990');
    await expect(page.getByLabel('Valor', { exact: true })).toHaveValue(/129,90/);
    await page.getByLabel('Desconto (%)').fill('5');
    await page.getByLabel('Início da vigência').fill('2026-01-01');
    await page.getByLabel('Fim da vigência').fill('2030-12-31');
    await page.getByLabel('Início da divulgação').fill('2031-01-01');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByText('Data deve estar entre as data de inicio e fim de validada')).toBeVisible();
    await page.getByLabel('Início da divulgação').fill('2026-02-01');
    await page.getByLabel('Fim da divulgação').fill('2026-03-31');
    await page.getByLabel('Todas as empresas').check();
    await page.getByRole('combobox', { name: 'Empresas parceiras' }).click();
    await page.getByRole('option', { name: 'Academia Forma Física' }).click();
    await page.getByLabel('Nome do plano').click();
    await page.getByLabel('Escolher imagem').setInputFiles({ name: 'plano.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByRole('img', { name: 'Imagem do plano' })).toBeVisible();
    await page.getByLabel('Cobrança infinita').check();
    await expect(page.getByLabel('Quantidade de cobranças')).toBeDisabled();
    await page.getByLabel('Cobrança infinita').uncheck();
    await page.getByLabel('Quantidade de cobranças').fill('12');
    await page.getByLabel('Periodicidade').selectOption('monthly');
    // Card is the main method at the plan's value; boleto is accepted too, at its own price.
    await expect(page.getByLabel(/^Aceitar também/)).toHaveCount(0);
    await page.getByLabel('Forma de pagamento').selectOption('creditcard');
    await page.getByLabel('Aceitar também Boleto').check();
    // The first boleto is due 3 days after subscribing unless told; 1 to 30.
    const firstDue = page.getByRole('group', { name: 'Integração' }).getByLabel('Vencimento do primeiro boleto (dias)');
    await expect(firstDue).toHaveValue('3');
    await firstDue.fill('31');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByRole('group', { name: 'Integração' }).getByText('Digite o valor.')).toBeVisible();
    await expect(
      page.getByRole('group', { name: 'Integração' }).getByText('O vencimento do primeiro boleto deve ser de 1 a 30 dias após a assinatura.'),
    ).toBeVisible();
    await firstDue.fill('7');
    await expect(page.getByText('O vencimento do primeiro boleto deve ser de 1 a 30 dias após a assinatura.')).toHaveCount(0);
    await page.getByLabel('Valor no Boleto').fill('11990');
    await expect(page.getByLabel('Valor no Boleto')).toHaveValue(/119,90/);
    await page.getByRole('button', { name: 'Salvar' }).click();

    await expect(toast(page, 'Plano de assinatura crido com sucesso!')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/subscription-detail-form\/\d+$/);
    await expect(page.getByRole('button', { name: 'Atualizar' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Imagem do plano' })).toHaveAttribute('src', /\/api\/media\//);
    await expect(page.getByLabel('Nome do plano')).toHaveValue(planName);
    await expect(page.getByLabel('Quantidade de cobranças')).toHaveValue('12');
    await expect(page.getByRole('list', { name: 'Empresas parceiras escolhidas' })).toContainText('Academia Forma Física');
    await expect(page.getByLabel('Forma de pagamento')).toHaveValue('creditcard');
    await expect(page.getByLabel('Aceitar também Boleto')).toBeChecked();
    await expect(page.getByLabel('Valor no Boleto')).toHaveValue(/119,90/);
    await expect(page.getByLabel('Vencimento do primeiro boleto (dias)')).toHaveValue('7');
    await screenshots(page, 'plan-form-basic');
    await sectionScreenshots(page.getByRole('group', { name: 'Integração' }), 'plan-form-integration');

    // An update keeps the image and says so.
    await page.getByLabel('Desconto (%)').fill('10');
    await page.getByRole('button', { name: 'Atualizar' }).click();
    await expect(toast(page, 'Plano de assinatura atualizado com sucesso!')).toBeVisible();
    await expect(page.getByRole('img', { name: 'Imagem do plano' })).toBeVisible();

    // Serviços: two services, the second cannot be the first again.
    await page.getByRole('tab', { name: 'Serviços' }).click();
    await expect(page.getByText('Nenhum serviço encontrado')).toBeVisible();
    await page.getByRole('button', { name: 'Adicionar serviço' }).click();
    const modal = page.getByRole('dialog', { name: 'Adicionar serviço' });
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await expect(modal.getByText('Escolha um serviço')).toBeVisible();
    await expect(modal.getByText('Informe o valor do desconto')).toBeVisible();
    await modal.getByLabel('Serviço', { exact: true }).selectOption({ label: 'Barba' });
    await expect(modal.getByLabel('Valor', { exact: true })).toHaveValue(/35,00/);
    await modal.getByLabel('Desconto (%)').fill('10');
    await screenshots(page, 'plan-service-modal');
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await expect(toast(page, 'Serviço adicionado com sucesso.')).toBeVisible();
    await expect(modal).toBeHidden();
    // Closed, so that the second service's toast is the only one with this text.
    await toast(page, 'Serviço adicionado com sucesso.').click();
    await expect(toast(page, 'Serviço adicionado com sucesso.')).toBeHidden();

    await page.getByRole('button', { name: 'Adicionar serviço' }).click();
    await expect(modal.getByRole('option', { name: 'Barba', exact: true })).toHaveCount(0);
    await modal.getByLabel('Serviço', { exact: true }).selectOption({ label: 'Corte de cabelo' });
    await modal.getByLabel('Desconto (%)').fill('20');
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await expect(toast(page, 'Serviço adicionado com sucesso.')).toBeVisible();

    const services = page.getByRole('table', { name: 'Serviços do plano' });
    const barba = services.getByRole('row').filter({ hasText: 'Barba' });
    await expect(barba).toContainText('R$ 35,00');
    await expect(barba).toContainText('10%');
    await expect(barba).toContainText('R$ 31,50');
    await expect(services.getByRole('row').filter({ hasText: 'Corte de cabelo' })).toContainText('R$ 36,00');

    // Editing offers the edited service itself.
    await page.getByRole('button', { name: 'Editar Barba' }).click();
    const editModal = page.getByRole('dialog', { name: 'Editar serviço' });
    await expect(editModal.getByLabel('Serviço', { exact: true })).toHaveValue(/\d+/);
    await expect(editModal.getByRole('option', { name: 'Barba', exact: true })).toHaveCount(1);
    await expect(editModal.getByRole('option', { name: 'Corte de cabelo', exact: true })).toHaveCount(0);
    await editModal.getByLabel('Desconto (%)').fill('50');
    await editModal.getByRole('button', { name: 'Salvar' }).click();
    await expect(toast(page, 'Serviço atualizado com sucesso.')).toBeVisible();
    await expect(barba).toContainText('R$ 17,50');
    await screenshots(page, 'plan-form-services');

    // The list: found by name, value in BRL, no subscribers yet.
    await page.goto(LIST);
    await page.getByLabel('Busque pelo nome ou descrição').fill(planName);
    await page.getByRole('button', { name: 'Pesquisar' }).click();
    const row = page.getByRole('table', { name: 'Planos' }).getByRole('row').filter({ hasText: planName });
    await expect(row).toContainText('R$ 129,90');
    await expect(row).toContainText(/Boleto: R\$\s119,90/);
    await expect(row).toContainText('Ativo');
    await expect(row.getByRole('cell').nth(3)).toHaveText('0');
    await screenshots(page, 'plan-list');

    // Send link: search the client, copy, e-mail, WhatsApp.
    await row.getByRole('button', { name: `Enviar link de ${planName}` }).click();
    const send = page.getByRole('dialog', { name: 'Enviar link do plano' });
    await expect(send).toContainText(planName);
    await send.getByLabel('Busque pelo nome, CPF ou telefone').fill(clientName);
    const clientRow = send.getByRole('row').filter({ hasText: clientName });
    await expect(clientRow).toBeVisible();
    await expect(send.getByRole('row')).toHaveCount(2);
    await screenshots(page, 'plan-send-link');

    await clientRow.getByRole('button', { name: `Copiar link de ${clientName}` }).click();
    await expect(toast(page, 'Link copiado !!')).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/\/checkout\?token=[\w-]+$/);

    const since = now() - 1000;
    await clientRow.getByRole('button', { name: `Enviar por e-mail para ${clientName}` }).click();
    await expect(toast(page, 'Email enviado com sucesso.')).toBeVisible();
    if (process.env.NAVALHA_OUTBOX_DIR) {
      const email = `${clientName.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@example.com`;
      await expect.poll(() => checkoutMailTo(email, since), { timeout: 15_000 }).toMatch(/\/checkout\?token=/);
    }

    const popup = page.waitForEvent('popup');
    await clientRow.getByRole('button', { name: `Enviar por WhatsApp para ${clientName}` }).click();
    const chat = decodeURIComponent((await popup).url());
    expect(chat).toMatch(/^https:\/\/wa\.me\/55\d{10,11}\?text=/);
    expect(chat).toContain(planName);
    expect(chat).toMatch(/\/checkout\?token=/);

    await send.getByLabel('Busque pelo nome, CPF ou telefone').fill(`ninguem ${shortStamp()}`);
    await expect(send.getByText('Nenhum usuário encontrado')).toBeVisible();
    await send.getByRole('button', { name: 'Fechar' }).click();

    // A search that finds nothing.
    await page.getByLabel('Busque pelo nome ou descrição').fill(`nenhum plano ${shortStamp()}`);
    await page.getByRole('button', { name: 'Pesquisar' }).click();
    await expect(page.getByText('Nenhum registro encontrado')).toBeVisible();
    await expect(page.getByText('Escolha um campo para filtar os planos de assinatura')).toBeVisible();
  });
});

test('an ATTENDANT sees a plan read-only and may send its link', async ({ page, request }) => {
  const planName = `Clube Leitura ${shortStamp()}`;
  const id = await createPlan(request, await apiToken(request, ADMIN.email), planName, {
    prices: [{ paymentMethod: 'boleto', value: '49,90' }],
  });

  await signInAs(page, ATTENDANT, PASSWORD);
  await page.goto(LIST);
  await expect(page.getByRole('heading', { name: 'Planos' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Novo plano' })).toHaveCount(0);
  await page.getByLabel('Busque pelo nome ou descrição').fill(planName);
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  await page.getByRole('button', { name: `Enviar link de ${planName}` }).click();
  const send = page.getByRole('dialog', { name: 'Enviar link do plano' });
  await expect(send.getByRole('link', { name: 'Novo cliente' })).toHaveAttribute('href', '/dashboard/client/new');
  await send.getByRole('button', { name: 'Fechar' }).click();
  await page.getByRole('link', { name: `Ver ${planName}` }).click();

  await expect(page).toHaveURL(new RegExp(`/subscription-detail-form/${id}$`));
  await expect(page.getByLabel('Nome do plano')).toHaveValue(planName);
  await expect(page.getByLabel('Nome do plano')).toBeDisabled();
  await expect(page.getByLabel('Valor', { exact: true })).toBeDisabled();
  await expect(page.getByLabel('Forma de pagamento')).toBeDisabled();
  await expect(page.getByLabel('Aceitar também Boleto')).toBeChecked();
  await expect(page.getByLabel('Aceitar também Boleto')).toBeDisabled();
  await expect(page.getByLabel('Valor no Boleto')).toHaveValue(/49,90/);
  await expect(page.getByLabel('Valor no Boleto')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Atualizar' })).toBeDisabled();
  await expect(page.getByLabel('Escolher imagem')).toHaveCount(0);
  await expect(page.getByLabel('ID no GalaxPay')).toHaveValue('Ainda não enviado');
  await expect(page.getByLabel('Vencimento do primeiro boleto (dias)')).toHaveValue('3');
  await expect(page.getByLabel('Vencimento do primeiro boleto (dias)')).toBeDisabled();
  await screenshots(page, 'plan-form-readonly');
  await page.getByRole('tab', { name: 'Serviços' }).click();
  await expect(page.getByText('Nenhum serviço encontrado')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Adicionar serviço' })).toHaveCount(0);
});
