import { describe, expect, it } from 'vitest';
import type { RoleType } from '@/api/types';
import { DAY, NEXT_DAY, appointment } from '@/test/agendaServer';
import { eventDetail } from '../components/Timeline';
import {
  ATTENDANCE_ACTION_LABELS,
  ATTENDANCE_LABELS,
  attendanceActions,
  attendanceOf,
  comandaPath,
  mayMarkAttendance,
} from './attendance';

const ROLES: (RoleType | null)[] = ['ADMIN', 'ATTENDANT', 'BARBER_LEADE', 'BARBER1', 'BARBER2', 'DEFAULT', null];
const PREVIOUS_DAY = '2026-11-23';

/** The menu's labels for an appointment: `past` it started, shown on `today`. */
const offered = (overrides: Parameters<typeof appointment>[1], past: boolean, today = DAY) =>
  attendanceActions(appointment(1, overrides), past, today).map((action) => ATTENDANCE_ACTION_LABELS[action]);

describe("the appointment's attendance (issue 41)", () => {
  it('reads the states in pt-BR, and nothing for null or an unknown value', () => {
    expect(ATTENDANCE_LABELS).toEqual({ ARRIVED: 'Cliente chegou', ATTENDED: 'Atendido', NO_SHOW: 'Não compareceu' });
    expect(attendanceOf({ Attendance: 'NO_SHOW' })).toBe('NO_SHOW');
    expect(attendanceOf({ Attendance: null })).toBeNull();
    expect(attendanceOf({})).toBeNull();
    expect(attendanceOf({ Attendance: 'LATE' })).toBeNull();
  });

  it('is marked by the front desk only, as the server allows', () => {
    expect(ROLES.filter(mayMarkAttendance)).toEqual(['ADMIN', 'ATTENDANT']);
  });

  it("offers 'Cliente chegou' and 'Abrir comanda' before the start, on its day", () => {
    expect(offered({}, false)).toEqual(['Cliente chegou', 'Abrir comanda']);
    // Another day: no arrival yet, but a comanda may be opened ahead.
    expect(offered({ Date: NEXT_DAY }, false)).toEqual(['Abrir comanda']);
  });

  it("offers 'Não compareceu' from the start on, the same day or after", () => {
    expect(offered({}, true)).toEqual(['Cliente chegou', 'Não compareceu', 'Abrir comanda']);
    expect(offered({ Date: PREVIOUS_DAY }, true)).toEqual(['Não compareceu', 'Abrir comanda']);
  });

  it('offers the undo of a no-show on its day only, and no comanda for it', () => {
    expect(offered({ Attendance: 'NO_SHOW' }, true)).toEqual(['Desfazer não compareceu']);
    expect(offered({ Date: PREVIOUS_DAY, Attendance: 'NO_SHOW' }, true)).toEqual([]);
  });

  it("offers neither arrival nor no-show once the client arrived; the comanda still opens", () => {
    expect(offered({ Attendance: 'ARRIVED' }, true)).toEqual(['Abrir comanda']);
  });

  it("offers 'Ver comanda', and nothing else, once the appointment has one", () => {
    expect(offered({ IdComanda: 31 }, true)).toEqual(['Ver comanda']);
    expect(offered({ Attendance: 'ARRIVED', IdComanda: 31 }, false)).toEqual(['Ver comanda']);
    expect(offered({ Attendance: 'ATTENDED', IdComanda: 31 }, true)).toEqual(['Ver comanda']);
    expect(comandaPath(31)).toBe('/dashboard/comanda/31');
  });

  it('offers nothing on a cancelled appointment', () => {
    expect(offered({ Status: false }, false)).toEqual([]);
    expect(offered({ Status: false, IdComanda: 31 }, true)).toEqual([]);
  });

  it("shows the state on a timeline block's second line, before the services", () => {
    expect(eventDetail(appointment(1, { Attendance: 'NO_SHOW' }))).toBe('Não compareceu · Corte de cabelo');
    expect(eventDetail(appointment(1, { Attendance: 'ATTENDED' }))).toBe('Atendido · Corte de cabelo');
    expect(eventDetail(appointment(1))).toBe('Corte de cabelo');
    expect(eventDetail(appointment(1, { Status: false, Attendance: 'NO_SHOW' }))).toBe('Cancelado');
  });
});
