import { describe, expect, it } from 'vitest';
import type { SchedulingDetail } from './types';
import {
  canConfirm,
  canLeaveClientStep,
  offeredHours,
  periodOf,
  timeNoticeText,
  wizard,
  wizardSlice,
  type WizardState,
} from './wizardSlice';

const reduce = wizardSlice.reducer;
const client = { IdUser: 7, Name: 'Rafael Araújo' };
const hour = { start: '13:00', end: '13:30', idProfessional: 4 };

function ready(): WizardState {
  let state = reduce(undefined, wizard.started({ idCompany: 1 }));
  state = reduce(state, wizard.clientChosen(client));
  state = reduce(state, wizard.serviceToggled(1));
  state = reduce(state, wizard.dateChosen('2026-11-24'));
  return reduce(state, wizard.hourChosen(hour));
}

const detail: SchedulingDetail = {
  IdScheduling: 24,
  IdCompanyProfessional: 7,
  CompanyProfessional: {
    IdCompanyProfessional: 7,
    Professional: { IdProfessional: 4, Name: 'Diego Barbeiro', Color: '#FF9800' },
    Company: { IdCompany: 1 },
  },
  Date: '2026-11-24',
  StartTime: '09:00:00',
  EndTime: '09:30:00',
  SchedulingServices: [{ IdService: 1, Description: 'Corte de cabelo', Time: 30, Value: 55 }],
  IdUser: 5,
  UserName: 'Rafael Araújo',
  UserPhone: '11987650104',
  UserWhatsApp: true,
  Observation: 'Máquina 2',
  Status: true,
  Confirmation: false,
  TimesType: 'ALL_TIMES',
};

describe('appointment wizard', () => {
  it('starts at CLIENT in the unit shown, with only available times', () => {
    const state = reduce(undefined, wizard.started({ idCompany: 3 }));
    expect(state).toMatchObject({ step: 'CLIENT', idCompany: 3, timesType: 'ONLY_AVAILABLES', serviceIds: [] });
    expect(canLeaveClientStep(state)).toBe(false);
    expect(canLeaveClientStep(reduce(state, wizard.clientChosen(client)))).toBe(true);
  });

  it('confirms only with a free hour, a client and a service', () => {
    const state = ready();
    expect(canConfirm(state)).toBe(true);
    expect(canConfirm({ ...state, hour: null })).toBe(false);
    expect(canConfirm({ ...state, client: null })).toBe(false);
    expect(canConfirm({ ...state, serviceIds: [] })).toBe(false);
  });

  it('clears the time when the date, the services, the professional or the times type change', () => {
    expect(reduce(ready(), wizard.dateChosen('2026-11-25')).hour).toBeNull();
    expect(reduce(ready(), wizard.dateChosen('2026-11-24')).hour).toEqual(hour);
    expect(reduce(ready(), wizard.serviceToggled(2)).hour).toBeNull();
    expect(reduce(ready(), wizard.professionalChosen(5)).hour).toBeNull();
    expect(reduce(ready(), wizard.timesTypeChosen('ALL_TIMES')).hour).toBeNull();
  });

  it('resets professionals, times and services when the unit changes', () => {
    let state = reduce(ready(), wizard.professionalChosen(4));
    state = reduce(state, wizard.companyChanged(2));
    expect(state).toMatchObject({ idCompany: 2, serviceIds: [], idProfessional: null, date: null, hour: null });
    expect(state.client).toEqual(client);
  });

  it('toggles services on and off', () => {
    let state = reduce(undefined, wizard.serviceToggled(1));
    state = reduce(state, wizard.serviceToggled(3));
    expect(state.serviceIds).toEqual([1, 3]);
    expect(reduce(state, wizard.serviceToggled(1)).serviceIds).toEqual([3]);
  });

  it('clears services, client and notes after a booking', () => {
    const state = reduce(reduce(ready(), wizard.observationChanged('Máquina 2')), wizard.submitted());
    expect(state).toMatchObject({ serviceIds: [], client: null, observation: '', hour: null });
  });

  it('edits from SERVICE, prefilled in steps (services, professional, time)', () => {
    let state = reduce(undefined, wizard.editLoaded(detail));
    expect(state).toMatchObject({
      step: 'SERVICE',
      idScheduling: 24,
      idCompany: 1,
      client: { IdUser: 5, Name: 'Rafael Araújo' },
      observation: 'Máquina 2',
      timesType: 'ALL_TIMES',
      serviceIds: [],
    });
    state = reduce(state, wizard.servicesPrefilled([1]));
    state = reduce(state, wizard.professionalPrefilled(4));
    state = reduce(state, wizard.timePrefilled({ date: '2026-11-24', hour: { start: '09:00', end: '09:30', idProfessional: 4 } }));
    expect(state).toMatchObject({ serviceIds: [1], idProfessional: 4, date: '2026-11-24', hour: { start: '09:00' } });
    expect(canConfirm(state)).toBe(true);
  });

  it("keeps what the user chose before the edit's prefill ended", () => {
    const mine = { start: '10:15', end: '11:00', idProfessional: 7 };
    let state = reduce(reduce(undefined, wizard.editLoaded(detail)), wizard.servicesPrefilled([1]));
    state = reduce(state, wizard.professionalChosen(7));
    state = reduce(state, wizard.dateDefaulted('2026-11-25'));
    state = reduce(state, wizard.professionalPrefilled(4));
    expect(state).toMatchObject({ idProfessional: 7, date: '2026-11-25' });
    state = reduce(state, wizard.timePrefilled({ date: '2026-11-24', hour: { start: '09:00', end: '09:30', idProfessional: 4 } }));
    expect(state.date).toBe('2026-11-24');
    state = reduce(reduce(state, wizard.dateChosen('2026-11-26')), wizard.hourChosen(mine));
    state = reduce(state, wizard.timePrefilled({ date: '2026-11-24', hour: { start: '09:00', end: '09:30', idProfessional: 4 } }));
    expect(state).toMatchObject({ idProfessional: 7, date: '2026-11-26', hour: mine });
  });
});

describe('free hours', () => {
  it('groups times into Manhã (before 12h), Tarde (12h to 17:59) and Noite (18h on)', () => {
    expect(['09:00', '11:59', '12:00', '17:59', '18:00', '20:30'].map(periodOf)).toEqual([
      'Manhã',
      'Manhã',
      'Tarde',
      'Tarde',
      'Noite',
      'Noite',
    ]);
  });

  const hours = [
    { start: '09:00', end: '09:30', idProfessional: 3 },
    { start: '09:00', end: '09:30', idProfessional: 4 },
    { start: '13:00', end: '13:30', idProfessional: 4 },
    { start: '18:15', end: '18:45', idProfessional: 3 },
  ];

  it("offers each start once with 'Sem preferência', taking the first professional free then", () => {
    const groups = offeredHours(hours, null);
    expect(groups['Manhã']).toEqual([hours[0]]);
    expect(groups.Tarde).toEqual([hours[2]]);
    expect(groups.Noite).toEqual([hours[3]]);
  });

  it("offers only a chosen professional's times", () => {
    const groups = offeredHours(hours, 4);
    expect(groups['Manhã']).toEqual([hours[1]]);
    expect(groups.Tarde).toEqual([hours[2]]);
    expect(groups.Noite).toEqual([]);
  });
});

describe('a time another desk took (issue 45)', () => {
  const day = (hours: { start: string; end: string; idProfessional: number }[]) => [{ shortDate: '2026-11-24', freeHours: hours }];
  const others = [{ start: '14:00', end: '14:30', idProfessional: 4 }];

  it('is cleared, and said, when the free times read again no longer offer it', () => {
    let state = reduce(ready(), wizard.freeTimesRead(day([hour, ...others])));
    expect(state).toMatchObject({ hour, hourOffered: true, timeNotice: null });
    state = reduce(state, wizard.freeTimesRead(day(others)));
    expect(state).toMatchObject({ hour: null, timeNotice: 'TAKEN' });
    expect(canConfirm(state)).toBe(false);
    // Choosing another time ends the message.
    state = reduce(state, wizard.hourChosen(others[0]));
    expect(state).toMatchObject({ hour: others[0], timeNotice: null });
  });

  it('goes with any other choice of the time step', () => {
    const taken = reduce(ready(), wizard.freeTimesRead(day(others)));
    expect(taken.timeNotice).toBe('TAKEN');
    expect(reduce(taken, wizard.dateChosen('2026-11-25')).timeNotice).toBeNull();
    expect(reduce(taken, wizard.professionalChosen(3)).timeNotice).toBeNull();
    expect(reduce(taken, wizard.serviceToggled(2)).timeNotice).toBeNull();
    expect(reduce(taken, wizard.timesTypeChosen('ALL_TIMES')).timeNotice).toBeNull();
  });

  it("stays with 'Sem preferência' when someone else still has the start", () => {
    const state = reduce(ready(), wizard.freeTimesRead(day([{ start: '13:00', end: '13:45', idProfessional: 3 }])));
    expect(state).toMatchObject({ hour: { start: '13:00', end: '13:45', idProfessional: 3 }, timeNotice: null });
  });

  it('is cleared for a chosen professional even if someone else has the start', () => {
    let state = reduce(ready(), wizard.professionalChosen(4));
    state = reduce(state, wizard.hourChosen(hour));
    state = reduce(state, wizard.freeTimesRead(day([{ start: '13:00', end: '13:30', idProfessional: 3 }])));
    expect(state).toMatchObject({ hour: null, timeNotice: 'TAKEN' });
  });

  it("leaves an edit's own time, never seen among the free times, as it is", () => {
    let state = reduce(reduce(undefined, wizard.editLoaded(detail)), wizard.servicesPrefilled([1]));
    state = reduce(state, wizard.professionalPrefilled(4));
    state = reduce(state, wizard.timePrefilled({ date: '2026-11-24', hour: { start: '09:00', end: '09:30', idProfessional: 4 } }));
    state = reduce(state, wizard.freeTimesRead(day(others)));
    expect(state).toMatchObject({ hour: { start: '09:00' }, timeNotice: null });
  });

  it('says nothing when no time was chosen, and not after a booking', () => {
    const none = reduce(reduce(undefined, wizard.started({ idCompany: 1 })), wizard.freeTimesRead(day(others)));
    expect(none.timeNotice).toBeNull();
    const booked = reduce(reduce(ready(), wizard.submitted()), wizard.freeTimesRead(day(others)));
    expect(booked).toMatchObject({ hour: null, timeNotice: null });
  });
});

describe('a clicked slot the services do not fit (issue 45)', () => {
  it('clears the time and says so, with the same notice as a taken time; any choice of the time step ends it', () => {
    const unfit = reduce(ready(), wizard.slotUnfit());
    expect(unfit).toMatchObject({ hour: null, hourOffered: false, timeNotice: 'SLOT_UNFIT' });
    expect(timeNoticeText(unfit.timeNotice)).toBe('Os serviços escolhidos não cabem neste horário. Escolha outro.');
    expect(canConfirm(unfit)).toBe(false);
    expect(reduce(unfit, wizard.hourChosen(hour)).timeNotice).toBeNull();
    expect(reduce(unfit, wizard.dateChosen('2026-11-25')).timeNotice).toBeNull();
    expect(reduce(unfit, wizard.serviceToggled(2)).timeNotice).toBeNull();
    // Free times read again (a live change) keep it: no time is chosen.
    expect(reduce(unfit, wizard.freeTimesRead([{ shortDate: '2026-11-24', freeHours: [hour] }])).timeNotice).toBe('SLOT_UNFIT');
    expect(timeNoticeText('TAKEN')).toBe('Este horário acabou de ser reservado. Escolha outro.');
    expect(timeNoticeText(null)).toBeNull();
  });
});
