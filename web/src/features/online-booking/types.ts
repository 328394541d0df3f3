// Wire shapes of the online booking calls (docs/online-booking.md). Answers are PascalCase,
// bodies camelCase; the free times are the existing public call's (camelCase).

import type { Schemas } from '@/api/wire';

/** A day the unit opens, 'HH:MM'; closed days are absent. */
export type OnlineHours = Schemas['OpenDay'];

/** Each professional may charge differently: the page shows "a partir de" the minimum. */
export type OnlineService = Schemas['PublicService'];

export type OnlineProfessional = Schemas['PublicProfessional'];

/** GET no-auth/online-booking/{idCompany}. */
export type OnlineUnit = Schemas['UnitPage'];

/** Body of POST no-auth/online-booking/{idCompany}/code (digits only in phone and cpf; email '' when not given). */
export type CodeRequest = Schemas['ClientIdentity'];

/** The answer of POST no-auth/online-booking/{idCompany}/code: the request the code answers to. */
export type CodeAnswer = Schemas['CodeSent'];

/**
 * The answer of POST no-auth/online-booking/{idCompany}/verify: the short-lived booking token
 * (only ever sent on the booking call), the client's name, and the token's seconds.
 */
export type VerifyAnswer = Schemas['ClientToken'];

/** What is booked: the chosen services, a professional (null: 'Sem preferência'), a day and a start. */
export interface SlotChoice {
  idProfessional: number | null;
  /** 'YYYY-MM-DD'. */
  date: string;
  /** 'HH:MM'. */
  startTime: string;
}

/** Body of POST no-auth/online-booking/{idCompany}/scheduling. */
export type BookingRequest = Schemas['TimeChoice'];

/** A booked service, with the professional's price and time. */
export type BookedService = Schemas['ServiceLine'];

/** GET no-auth/online-booking/booking/{token}, and the answers of the writes. */
export type OnlineBooking = Schemas['BookingView'];

/** The 201 of the booking call: the booking and the token of its manage link. */
export type CreatedBooking = Schemas['BookedOnline'];
