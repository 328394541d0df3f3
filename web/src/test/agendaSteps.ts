/** Steps the agenda's tests take as a person would, shared so each is written once. */
import { screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { beforeAll, expect } from 'vitest';
import { signedInSession } from '@/test/fixtures';
import { renderApp } from '@/test/render';

export type User = ReturnType<typeof userEvent.setup>;

/** The agenda as a signed-in user of `role` opens it. */
export function renderAgenda(role: Parameters<typeof signedInSession>[0] = 'ADMIN', overrides = {}) {
  return renderApp('/dashboard/scheduling', { session: signedInSession(role, overrides) });
}

/**
 * Loads the agenda's lazy page once, before a file's tests: otherwise the first test pays for
 * its transform inside a 3 s wait, which a busy machine overruns.
 */
export function loadAgendaFirst() {
  beforeAll(async () => {
    await import('@/features/agenda/components/AgendaPage');
  }, 60_000);
}

/** Opens the options menu of appointment `id`'s card. */
export async function openOptions(user: User, id: number) {
  await user.click(await screen.findByRole('button', { name: `Opções do agendamento N.º ${id}` }));
}

/** Opens appointment `id`'s edit wizard and goes on to its time step: the wizard. */
export async function editToTimeStep(user: User, id: number) {
  await openOptions(user, id);
  await user.click(screen.getByRole('menuitem', { name: 'Editar' }));
  const modal = screen.getByRole('dialog', { name: 'Editar agendamento' });
  await waitFor(() => expect(within(modal).getByRole('button', { name: 'Próximo' }).hasAttribute('disabled')).toBe(false));
  await user.click(within(modal).getByRole('button', { name: 'Próximo' }));
  return modal;
}

/**
 * In the edit wizard of an appointment booked at `booked`, once that time shows chosen,
 * picks `professional` (when given) and `time`, and presses 'Confirmar'.
 */
export async function moveAndConfirm(user: User, modal: HTMLElement, booked: string, time: string, professional?: string) {
  await waitFor(() => expect(within(modal).getByRole('button', { name: booked }).getAttribute('aria-pressed')).toBe('true'), {
    timeout: 3000,
  });
  if (professional) {
    await user.click(within(modal).getByRole('combobox', { name: 'Profissional' }));
    await user.click(screen.getByRole('option', { name: professional }));
  }
  await user.click(within(modal).getByRole('button', { name: time }));
  await user.click(within(modal).getByRole('button', { name: 'Confirmar' }));
}
