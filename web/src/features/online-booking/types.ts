// Wire shapes of the online booking calls (docs/online-booking.md). Answers are PascalCase,
// bodies camelCase; the free times are the existing public call's (camelCase).

export interface OnlineHours {
  /** 0 (Sunday) to 6; closed days are absent. */
  WeekDay: number;
  /** 'HH:MM'. */
  Start: string;
  End: string;
}

export interface OnlineService {
  IdService: number;
  Name: string;
  /** Each professional may charge differently: the page shows "a partir de" the minimum. */
  MinCents: number;
  MaxCents: number;
  MinMinutes: number;
  MaxMinutes: number;
}

export interface OnlineProfessional {
  IdProfessional: number;
  Name: string;
  Photo: string | null;
  IdServices: number[];
}

/** GET no-auth/online-booking/{idCompany}. */
export interface OnlineUnit {
  IdCompany: number;
  Name: string;
  Address: string;
  Phone: string;
  WhatsApp: boolean;
  Photos: string[];
  Hours: OnlineHours[];
  Services: OnlineService[];
  Professionals: OnlineProfessional[];
  CancelCutoffHours: number;
  MaxFutureBookings: number;
  /** The unit's IANA time zone: the page's today is on its clock (issue 39). */
  TimeZone?: string;
}

export interface CodeRequest {
  name: string;
  /** Digits only. */
  phone: string;
  /** Digits only. */
  cpf: string;
  /** '' when not given. */
  email: string;
}

export interface CodeAnswer {
  RequestId: string;
  message: string;
}

export interface VerifyAnswer {
  /** The short-lived booking token: only ever sent on the booking call. */
  Token: string;
  Name: string;
  /** Seconds. */
  ExpiresIn: number;
}

/** What is booked: the chosen services, a professional (null: 'Sem preferência'), a day and a start. */
export interface SlotChoice {
  idProfessional: number | null;
  /** 'YYYY-MM-DD'. */
  date: string;
  /** 'HH:MM'. */
  startTime: string;
}

export interface BookingRequest extends SlotChoice {
  idServices: number[];
}

export type BookingStatus = 'BOOKED' | 'CANCELLED';

export interface BookedService {
  IdService: number;
  Name: string;
  Cents: number;
  Minutes: number;
}

/** GET no-auth/online-booking/booking/{token}, and the answers of the writes. */
export interface OnlineBooking {
  IdScheduling: number;
  IdCompany: number;
  CompanyName: string;
  Address: string;
  IdProfessional: number;
  ProfessionalName: string;
  Date: string;
  /** 'HH:MM' (tolerates 'HH:MM:SS'). */
  StartTime: string;
  EndTime: string;
  Services: BookedService[];
  TotalCents: number;
  Status: BookingStatus;
  /** The unit's wall clock, 'YYYY-MM-DDTHH:MM:SS'. */
  ChangeableUntil: string;
  Changeable: boolean;
}

/** The 201 of the booking call: the booking and the token of its manage link. */
export interface CreatedBooking extends OnlineBooking {
  ManageToken: string;
}
