/** GET professional/my-profile (the fields the page uses). */
export interface MyProfile {
  IdProfessional: number;
  Name: string;
  Cpf: string;
  Email: string;
  Phone: string;
  WhatsApp: boolean;
  BirthDate: string | null;
  Cep: string | null;
  Street: string | null;
  Number: string | null;
  District: string | null;
  City: string | null;
  State: string | null;
  Complement: string | null;
}

/** PUT professional/my-profile body. */
export interface MyProfilePayload {
  name: string;
  email: string;
  cpf: string;
  phone: string;
  whatsApp: boolean;
  birthDate: string | null;
  cep: string;
  street: string;
  number: string;
  complement: string;
  district: string;
  city: string;
  state: string;
}
