// Test data of the online booking pages (used by their tests only).
import type { AvailableTimes } from '@/features/agenda';
import type { CreatedBooking, OnlineBooking, OnlineUnit } from './types';

export const unit: OnlineUnit = {
  IdCompany: 1,
  Name: 'Navalha Centro',
  Address: 'Rua Augusta, 100 - Consolação, São Paulo/SP',
  Phone: '11987654321',
  WhatsApp: true,
  Photos: ['/api/company/1/gallery/3', '/api/company/1/gallery/4'],
  Hours: [
    { WeekDay: 2, Start: '09:00', End: '19:00' },
    { WeekDay: 6, Start: '08:00', End: '14:00' },
  ],
  Services: [
    { IdService: 1, Name: 'Corte', MinCents: 4000, MaxCents: 5000, MinMinutes: 30, MaxMinutes: 45 },
    { IdService: 2, Name: 'Barba', MinCents: 3000, MaxCents: 3000, MinMinutes: 30, MaxMinutes: 30 },
  ],
  Professionals: [
    { IdProfessional: 3, Name: 'Rafael Lima', Photo: null, IdServices: [1, 2] },
    { IdProfessional: 4, Name: 'Bruno Costa', Photo: null, IdServices: [1] },
  ],
  CancelCutoffHours: 2,
  MaxFutureBookings: 2,
  TimeZone: 'America/Sao_Paulo',
};

export const DAY1 = '2030-11-26';
export const DAY2 = '2030-11-27';

export const freeTimes: AvailableTimes = {
  professionals: [
    { idProfessional: 3, idCompanyProfessional: 13, name: 'Rafael Lima', color: '#111', value: 45 },
    { idProfessional: 4, idCompanyProfessional: 14, name: 'Bruno Costa', color: '#222', value: 50 },
  ],
  times: [
    {
      shortDate: DAY1,
      freeHours: [
        { start: '10:00', end: '10:30', idProfessional: 3 },
        { start: '10:00', end: '10:30', idProfessional: 4 },
        { start: '14:00', end: '14:30', idProfessional: 3 },
        { start: '18:30', end: '19:00', idProfessional: 4 },
      ],
    },
    { shortDate: DAY2, freeHours: [{ start: '09:00', end: '09:30', idProfessional: 4 }] },
  ],
};

export const booking: OnlineBooking = {
  IdScheduling: 9,
  IdCompany: 1,
  CompanyName: 'Navalha Centro',
  Address: 'Rua Augusta, 100 - Consolação, São Paulo/SP',
  IdProfessional: 3,
  ProfessionalName: 'Rafael Lima',
  Date: DAY1,
  StartTime: '10:00',
  EndTime: '10:30',
  Services: [{ IdService: 1, Name: 'Corte', Cents: 4000, Minutes: 30 }],
  TotalCents: 4000,
  Status: 'BOOKED',
  ChangeableUntil: `${DAY1}T08:00:00`,
  Changeable: true,
};

export const created: CreatedBooking = { ...booking, ManageToken: 'manage-abc' };
