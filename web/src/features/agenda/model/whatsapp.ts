import { formatDateBR, shortTime } from '@/lib/dates';
import { whatsAppLink } from '@/lib/whatsapp';

export { whatsAppLink };

/** The prefilled confirmation message, naming the barbershop. */
export function confirmationMessage(name: string, company: string, date: string, start: string): string {
  const first = name.trim().split(/\s+/)[0] ?? name;
  return `Olá, ${first}! Aqui é da ${company}. Podemos confirmar seu horário em ${formatDateBR(date)} às ${shortTime(start)}?`;
}
