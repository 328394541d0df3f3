import { formatDateBR, shortTime } from '@/lib/dates';
import { onlyDigits } from '@/lib/masks';

/** Country code of the messaging-app links (spec 01 §9). */
export const PHONE_COUNTRY_CODE = '55';

/** The prefilled confirmation message, naming the barbershop. */
export function confirmationMessage(name: string, company: string, date: string, start: string): string {
  const first = name.trim().split(/\s+/)[0] ?? name;
  return `Olá, ${first}! Aqui é da ${company}. Podemos confirmar seu horário em ${formatDateBR(date)} às ${shortTime(start)}?`;
}

/** A chat with the client's phone (55 prefixed) and the confirmation message. */
export function whatsAppLink(phone: string, message: string): string {
  let digits = onlyDigits(phone);
  if (digits.startsWith(PHONE_COUNTRY_CODE) && digits.length > 11) digits = digits.slice(PHONE_COUNTRY_CODE.length);
  return `https://wa.me/${PHONE_COUNTRY_CODE}${digits}?text=${encodeURIComponent(message)}`;
}
