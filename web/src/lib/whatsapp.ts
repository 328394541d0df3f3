import { onlyDigits } from './masks';

/** Country code of the messaging-app links (spec 01 §9, spec 02 §9). */
export const PHONE_COUNTRY_CODE = '55';

/** A chat with a phone (55 prefixed), with an optional prefilled message. */
export function whatsAppLink(phone: string, message?: string): string {
  let digits = onlyDigits(phone);
  if (digits.startsWith(PHONE_COUNTRY_CODE) && digits.length > 11) digits = digits.slice(PHONE_COUNTRY_CODE.length);
  const text = message ? `?text=${encodeURIComponent(message)}` : '';
  return `https://wa.me/${PHONE_COUNTRY_CODE}${digits}${text}`;
}
