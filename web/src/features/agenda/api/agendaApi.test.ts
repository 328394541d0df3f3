import { describe, expect, it } from 'vitest';
import { availableTimesUrl, dayUrl, idList } from './agendaApi';

describe('agenda calls', () => {
  it('reads a day with only the filters that are set', () => {
    expect(dayUrl({ idCompany: 1, date: '2026-11-24', idProfessional: null, idUser: 0, status: 0 })).toBe(
      'scheduling/professional?idCompany=1&date=2026-11-24&status=0',
    );
    expect(dayUrl({ idCompany: 1, date: '2026-11-24', idProfessional: 4, idUser: 9, status: 2 })).toBe(
      'scheduling/professional?idCompany=1&date=2026-11-24&idProfessional=4&idUser=9&status=2',
    );
  });

  it('asks for free times with bracketed id lists, timesType only when given', () => {
    expect(idList([1, 2])).toBe('[1,2]');
    const url = availableTimesUrl({ idCompany: 1, idServices: [1, 4], timesType: 'ALL_TIMES', idSchedulingEdit: 9 });
    const params = new URLSearchParams(url.split('?')[1]);
    expect(url.startsWith('no-auth/scheduling/available-times?')).toBe(true);
    expect(Object.fromEntries(params)).toEqual({
      idCompany: '1',
      idServices: '[1,4]',
      timesType: 'ALL_TIMES',
      idSchedulingEdit: '9',
    });
    const mobile = new URLSearchParams(availableTimesUrl({ idCompany: 1, idServices: [2] }).split('?')[1]);
    expect(mobile.has('timesType')).toBe(false);
    expect(mobile.has('idProfessionals')).toBe(false);
  });
});
