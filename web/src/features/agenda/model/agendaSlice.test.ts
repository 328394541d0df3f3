import { describe, expect, it } from 'vitest';
import { companySelected, signedOut } from '@/state/sessionSlice';
import {
  agendaSlice,
  cancelledToggled,
  clientFiltered,
  dayChosen,
  effectiveProfessional,
  initialAgendaState,
  mayChangeCompany,
  mayChooseAnyProfessional,
  modalClosed,
  modalOpened,
  professionalFiltered,
  statusFiltered,
  viewChosen,
} from './agendaSlice';

const reduce = agendaSlice.reducer;

describe('agenda slice', () => {
  it('starts on today, everyone, every status, as a list', () => {
    expect(reduce(undefined, { type: '@@init' })).toEqual(initialAgendaState);
    expect(initialAgendaState).toMatchObject({ date: null, idProfessional: 0, idUser: 0, status: 0, view: 'list' });
  });

  it('keeps the day, filters and view the user chose', () => {
    let state = reduce(undefined, dayChosen('2026-11-24'));
    state = reduce(state, professionalFiltered(4));
    state = reduce(state, clientFiltered({ idUser: 9, name: 'Rafael Araújo' }));
    state = reduce(state, statusFiltered(2));
    state = reduce(state, viewChosen('timeline'));
    expect(state).toMatchObject({
      date: '2026-11-24',
      idProfessional: 4,
      idUser: 9,
      clientName: 'Rafael Araújo',
      status: 2,
      view: 'timeline',
    });
    expect(reduce(state, clientFiltered({ idUser: 0, name: 'Todos' })).clientName).toBe('');
  });

  it('forgets the professional when the unit changes', () => {
    const state = reduce(reduce(undefined, professionalFiltered(4)), companySelected(2));
    expect(state.idProfessional).toBe(0);
  });

  it('opens the modal to create or to edit, and closes it', () => {
    expect(reduce(undefined, modalOpened(null)).modal).toEqual({ open: true, idScheduling: null });
    const editing = reduce(undefined, modalOpened(24));
    expect(editing.modal).toEqual({ open: true, idScheduling: 24 });
    expect(reduce(editing, modalClosed()).modal).toEqual({ open: false, idScheduling: null });
  });

  it("keeps a series' appointment's place in its series while editing it, and forgets it on close", () => {
    const series = { IdSeries: 40, Index: 2, Count: 4, EveryWeeks: 1 };
    const editing = reduce(undefined, modalOpened(24, series));
    expect(editing.modal).toEqual({ open: true, idScheduling: 24, series });
    expect(reduce(undefined, modalOpened(24, null)).modal).toEqual({ open: true, idScheduling: 24 });
    expect(reduce(editing, modalClosed()).modal).toEqual({ open: false, idScheduling: null });
  });

  it('toggles the mobile list between confirmed and cancelled', () => {
    const state = reduce(undefined, cancelledToggled());
    expect(state.showCancelled).toBe(true);
    expect(reduce(state, cancelledToggled()).showCancelled).toBe(false);
  });

  it('starts over on sign-out', () => {
    const state = reduce(reduce(undefined, dayChosen('2026-11-24')), signedOut());
    expect(state).toEqual(initialAgendaState);
  });
});

describe('agenda role rules (spec 01 §6)', () => {
  it('lets ADMIN, ATTENDANT and BARBER_LEADE choose any professional', () => {
    for (const role of ['ADMIN', 'ATTENDANT', 'BARBER_LEADE'] as const) {
      expect(mayChooseAnyProfessional(role, 3)).toBe(true);
      expect(effectiveProfessional(5, role, 3)).toBe(5);
      expect(effectiveProfessional(0, role, 3)).toBeNull();
    }
  });

  it('keeps the other roles on their own agenda', () => {
    for (const role of ['BARBER1', 'BARBER2', 'DEFAULT'] as const) {
      expect(mayChooseAnyProfessional(role, 4)).toBe(false);
      expect(effectiveProfessional(5, role, 4)).toBe(4);
      expect(effectiveProfessional(0, role, 4)).toBe(4);
    }
  });

  it('lets staff without a professional id choose anyone', () => {
    expect(mayChooseAnyProfessional('BARBER1', null)).toBe(true);
    expect(effectiveProfessional(0, null, null)).toBeNull();
  });

  it('lets only ADMIN and ATTENDANT change the unit', () => {
    expect(mayChangeCompany('ADMIN')).toBe(true);
    expect(mayChangeCompany('ATTENDANT')).toBe(true);
    expect(mayChangeCompany('BARBER_LEADE')).toBe(false);
    expect(mayChangeCompany('BARBER1')).toBe(false);
    expect(mayChangeCompany(null)).toBe(false);
  });
});
