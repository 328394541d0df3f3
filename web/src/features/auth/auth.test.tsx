import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loginResponse, ownCompany } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';

/** Records the bodies of the identity calls and answers like the server. */
function identityServer() {
  const calls: { path: string; body: unknown }[] = [];
  const record = (path: string, answer: () => Response) =>
    http.all(apiUrl(path), async ({ request }) => {
      calls.push({ path, body: await request.json() });
      return answer();
    });
  server.use(
    record('session-professional/recovery-code', () => HttpResponse.json({ message: 'Código enviado com sucesso.' })),
    record('session-professional/validate-recovery-code', () =>
      HttpResponse.json({ message: 'Código validado com sucesso.' }),
    ),
    record('session-professional/reset-password', () => HttpResponse.json(loginResponse('ADMIN'))),
    record('no-auth/professional/complete-register', () => HttpResponse.json(loginResponse('BARBER1'))),
    http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([])),
    http.get(apiUrl('company'), () => HttpResponse.json([ownCompany])),
  );
  return calls;
}

describe('password recovery', () => {
  it('sends the code, validates it and sets a new password, signing in', async () => {
    const calls = identityServer();
    const user = userEvent.setup();
    const { router, store } = renderApp('/send-recovery-email');
    expect(await screen.findByText('Informe o seu e-mail para receber o código e o link para alterar sua senha')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByText('Digite seu e-mail.')).toBeTruthy();
    await user.type(screen.getByLabelText('E-mail'), 'admin@navalha.dev');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByText('Código enviado com sucesso.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/send-code-received');

    // Numeric only.
    const code = (await screen.findByLabelText('Código')) as HTMLInputElement;
    await user.type(code, '12a3456');
    expect(code.value).toBe('123456');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByText('Código validado com sucesso.')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Criar nova senha' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/create-new-password');

    const checklist = screen.getByRole('list', { name: 'Requisitos da senha' });
    await user.type(screen.getByLabelText('Senha'), 'Navalha');
    expect(within(checklist).getAllByText(/\(atendido\)/)).toHaveLength(3);
    await user.type(screen.getByLabelText('Senha'), '@2026');
    expect(within(checklist).getAllByText(/\(atendido\)/)).toHaveLength(5);
    await user.type(screen.getByLabelText('Confirmação da senha'), 'Navalha@2026');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(store.getState().session.token).toBe('token-123');
    expect(calls.map((c) => c.body)).toEqual([
      { cpfOrEmail: 'admin@navalha.dev' },
      { cpfOrEmail: 'admin@navalha.dev', recoveryCode: '123456' },
      { cpfOrEmail: 'admin@navalha.dev', recoveryCode: '123456', newPassword: 'Navalha@2026', recoveryData: '' },
    ]);
  });

  it("'Já possuo o código' goes on without sending one", async () => {
    const calls = identityServer();
    const user = userEvent.setup();
    const { router } = renderApp('/send-recovery-email');
    await user.type(await screen.findByLabelText('E-mail'), 'admin@navalha.dev');
    await user.click(screen.getByRole('button', { name: 'Já possuo o código' }));
    expect(await screen.findByLabelText('Código')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/send-code-received');
    expect(calls).toEqual([]);
  });

  it('resets with the link of the e-mail (recovery-data)', async () => {
    const calls = identityServer();
    const user = userEvent.setup();
    const { router } = renderApp('/create-new-password?recovery-data=token-do-link');
    await user.type(await screen.findByLabelText('Senha'), 'Navalha@2026');
    await user.type(screen.getByLabelText('Confirmação da senha'), 'Navalha@2026');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(calls[0].body).toEqual({
      cpfOrEmail: '',
      recoveryCode: '',
      newPassword: 'Navalha@2026',
      recoveryData: 'token-do-link',
    });
  });

  it("puts the server's refusal of the current password on the password field (issue 39)", async () => {
    identityServer();
    server.use(
      http.post(apiUrl('session-professional/reset-password'), () =>
        HttpResponse.json(
          {
            message: 'A nova senha deve ser diferente da senha atual.',
            errors: { newPassword: 'A nova senha deve ser diferente da senha atual.' },
          },
          { status: 422 },
        ),
      ),
    );
    const user = userEvent.setup();
    const { router } = renderApp('/create-new-password?recovery-data=token-do-link');
    await user.type(await screen.findByLabelText('Senha'), 'Navalha@2026');
    await user.type(screen.getByLabelText('Confirmação da senha'), 'Navalha@2026');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    const field = screen.getByLabelText('Senha').closest('.field')!;
    await waitFor(() => expect(field.textContent).toContain('A nova senha deve ser diferente da senha atual.'));
    expect(router.state.location.pathname).toBe('/create-new-password');
  });

  it('sends the code and password steps back to the start without their data', async () => {
    const { router } = renderApp('/send-code-received');
    expect(await screen.findByText('Informe o seu e-mail para receber o código e o link para alterar sua senha')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/send-recovery-email');
    await router.navigate('/create-new-password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/send-recovery-email'));
  });
});

describe('registration', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('validates the information step, then sets the password and signs in without a role', async () => {
    const calls = identityServer();
    const user = userEvent.setup();
    const { router, store } = renderApp('/signup?complete-register=convite-123');
    await user.click(await screen.findByRole('button', { name: 'Próximo' }));
    expect(await screen.findByText('O campo CPF é obrigatório.')).toBeTruthy();
    expect(screen.getByText('O campo Nome Completo é obrigatório.')).toBeTruthy();
    expect(screen.getByText('O campo celular é obrigatório.')).toBeTruthy();

    await user.type(screen.getByLabelText('CPF'), '52998224725');
    expect((screen.getByLabelText('CPF') as HTMLInputElement).value).toBe('529.982.247-25');
    await user.type(screen.getByLabelText('Nome completo'), 'Diego Barbeiro');
    await user.type(screen.getByLabelText('Celular'), '11987654321');
    await user.click(screen.getByLabelText('Este número é WhatsApp'));
    await user.click(screen.getByRole('button', { name: 'Próximo' }));

    expect(await screen.findByText('Insira sua senha para finalizar o cadastro.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/sign-up-password');
    expect(router.state.location.search).toBe('?complete-register=convite-123');
    // No data was sent at the information step.
    expect(calls).toEqual([]);
    // No Google client id: no 'Finalize com o Google'.
    expect(screen.queryByRole('button', { name: 'Finalize com o Google' })).toBeNull();

    await user.type(screen.getByLabelText('Senha'), 'abc');
    await user.click(screen.getByRole('button', { name: 'Confirmar' }));
    expect(await screen.findByText('Sua senha precisa ter ao menos 6 dígitos')).toBeTruthy();
    expect(screen.getByText('Digite sua senha novamente.')).toBeTruthy();
    await user.clear(screen.getByLabelText('Senha'));
    await user.type(screen.getByLabelText('Senha'), 'Navalha@2026');
    await user.type(screen.getByLabelText('Digite sua senha novamente'), 'Navalha@2026');
    await user.click(screen.getByRole('button', { name: 'Confirmar' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(calls).toEqual([
      { path: 'no-auth/professional/complete-register', body: { completeRegister: 'convite-123', password: 'Navalha@2026' } },
    ]);
    expect(store.getState().session.role).toBeNull();
  });

  it('answers at both readings of the password step, and needs the registration value', async () => {
    vi.stubEnv('VITE_GOOGLE_CLIENT_ID', 'client-id.apps.example');
    const { router } = renderApp('/SignupPassword?complete-register=abc');
    expect(await screen.findByRole('heading', { name: 'Cadastro | Senha' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Finalize com o Google' })).toBeTruthy();
    await router.navigate('/sign-up-password');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('back arrow', () => {
  it('shows when the history is longer than 2 entries', async () => {
    const first = renderApp('/login-email');
    await screen.findByRole('heading', { name: 'Login | E-mail' });
    expect(screen.queryByRole('button', { name: 'Voltar' })).toBeNull();
    first.unmount();

    window.history.pushState({}, '', '/a');
    window.history.pushState({}, '', '/b');
    expect(window.history.length).toBeGreaterThan(2);
    renderApp('/login-email');
    expect(await screen.findByRole('button', { name: 'Voltar' })).toBeTruthy();
  });
});
