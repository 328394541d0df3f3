// Wire shapes of the professional and day-off calls (answers PascalCase, bodies camelCase).

export interface Page<T> {
  content: T[];
  total: number;
  count: number;
}

/** Generic status of a professional (spec 02 §4): 0 pending, 1 active, 2 inactive. */
export type ProfessionalStatus = 0 | 1 | 2;

export interface ProfessionalItem {
  IdProfessional: number;
  Name: string;
  Phone: string;
  Email: string;
  Status: ProfessionalStatus;
}

export interface ProfessionalQuery {
  page: number;
  pageSize: number;
  search: string;
  /** '' is every status. */
  status: string;
}

export interface ProfessionalDetail {
  IdProfessional: number;
  Name: string;
  Cpf: string;
  Email: string;
  Phone: string;
  WhatsApp: boolean;
  BirthDate: string | null;
  Status: ProfessionalStatus;
  Cep: string | null;
  Street: string | null;
  Number: string | null;
  District: string | null;
  City: string | null;
  State: string | null;
  Complement: string | null;
  Color: string;
  IdTypeProfile: number;
  IdCompany: number | null;
  /** The first is the professional's own unit. */
  Companies: { IdCompany: number; IdCompanyProfessional: number; Name: string }[];
}

export interface ProfessionalPayload {
  name: string;
  cpf: string;
  email: string;
  phone: string;
  whatsApp: boolean;
  birthDate: string;
  cep: string;
  street: string;
  number: string;
  complement: string;
  district: string;
  city: string;
  state: string;
  status: number;
  idCompany: number;
  /** The professional's other units, kept as they are (the form edits the own unit only). */
  idsCompanies: number[];
  color: string;
  idTypeProfile: number;
}

export interface TypeProfile {
  IdTypeProfile: number;
  Type: string;
  Description: string;
}

export interface DayOffItem {
  IdDayOff: number;
  Description: string;
  DateStart: string;
  DateEnd: string;
  AllDay: boolean;
  StartTime: string | null;
  EndTime: string | null;
}

export interface DayOffPayload {
  description: string;
  dateStart: string;
  dateEnd: string;
  allDay: boolean;
  startTime: string | null;
  endTime: string | null;
  idProfessional: number;
}
