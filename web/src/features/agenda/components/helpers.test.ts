import { describe, expect, it } from 'vitest';
import { appointment, professionals } from '@/test/agendaServer';
import { timelineColumns } from '../model/day';
import { matchesSearch } from './MobileScheduling';
import { bookedMessage, slotFit } from './AppointmentModal';
import { availableDates, initialDate } from './TimePicker';

describe('agenda views', () => {
  it('makes a column per professional shown, plus anyone with appointments', () => {
    const items = [{ ...appointment(1), IdProfessional: 9, ProfessionalName: 'Outro', ProfessionalColor: '#000' }];
    expect(timelineColumns(professionals, items, null).map((c) => c.name)).toEqual([
      'Caio Líder',
      'Diego Barbeiro',
      'Eduardo Barbeiro',
      'Outro',
    ]);
    expect(timelineColumns(professionals, [], 4).map((c) => c.idProfessional)).toEqual([4]);
  });

  it('searches the mobile list by name, service or phone digits', () => {
    const item = appointment(1);
    expect(matchesSearch(item, 'rafael')).toBe(true);
    expect(matchesSearch(item, 'ARAUJO')).toBe(true);
    expect(matchesSearch(item, 'corte')).toBe(true);
    expect(matchesSearch(item, '98765-0100')).toBe(true);
    expect(matchesSearch(item, 'x100')).toBe(false);
    expect(matchesSearch(item, '')).toBe(true);
  });

  it("offers the days where the professional (or anyone) has a free time", () => {
    const times = [
      { shortDate: '2026-11-24', freeHours: [{ start: '09:00', end: '09:30', idProfessional: 3 }] },
      { shortDate: '2026-11-25', freeHours: [{ start: '09:00', end: '09:30', idProfessional: 4 }] },
    ];
    expect(availableDates(times, null)).toEqual(['2026-11-24', '2026-11-25']);
    expect(availableDates(times, 4)).toEqual(['2026-11-25']);
    expect(availableDates(undefined, null)).toEqual([]);
  });
});

describe('the day the time step starts on', () => {
  const dates = ['2026-11-25', '2026-11-27'];
  it('is the agenda’s day, with or without free times, so a booking never lands elsewhere unnoticed', () => {
    expect(initialDate('2026-11-27', dates, '2026-11-24')).toBe('2026-11-27');
    expect(initialDate('2026-11-26', dates, '2026-11-24')).toBe('2026-11-26');
    expect(initialDate('2026-11-24', dates, '2026-11-24')).toBe('2026-11-24');
  });
  it('is the first free day when the agenda shows a past day, or none', () => {
    expect(initialDate('2026-11-20', dates, '2026-11-24')).toBe('2026-11-25');
    expect(initialDate(null, dates, '2026-11-24')).toBe('2026-11-25');
    expect(initialDate('2026-11-20', [], '2026-11-24')).toBeNull();
  });
  it('is said in the success toast', () => {
    expect(bookedMessage('2026-11-27', '10:30')).toBe(
      'Agendamento realizado com sucesso! 27/11/2026 às 10:30.',
    );
  });
});

describe('a clicked slot and the services chosen (issue 45)', () => {
  const times = [{ shortDate: '2026-11-24', freeHours: [{ start: '11:00', end: '11:30', idProfessional: 4 }] }];
  const slot = (date: string, start: string, idProfessional = 4) => ({ idProfessional, date, start });
  it('is the free time that starts there for the professional', () => {
    expect(slotFit(times, slot('2026-11-24', '11:00'), '2026-11-24')).toEqual(times[0].freeHours[0]);
  });
  it('does not fit when the free times, which cover the day, do not start there for them', () => {
    expect(slotFit(times, slot('2026-11-24', '10:00'), '2026-11-24')).toBe('UNFIT');
    expect(slotFit(times, slot('2026-11-24', '11:00', 3), '2026-11-24')).toBe('UNFIT');
    // A day without any free time is left out of the answer: nothing fits there.
    expect(slotFit(times, slot('2026-11-26', '11:00'), '2026-11-24')).toBe('UNFIT');
    expect(slotFit(times, slot('2026-12-23', '11:00'), '2026-11-24')).toBe('UNFIT');
  });
  it('says nothing for a day the free times do not cover (today and the next 29 days)', () => {
    expect(slotFit(times, slot('2026-12-24', '11:00'), '2026-11-24')).toBeNull();
    expect(slotFit(times, slot('2026-11-23', '11:00'), '2026-11-24')).toBeNull();
  });
});
