import { describe, expect, it } from 'vitest';
import { confirmationMessage, whatsAppLink } from './whatsapp';

describe('WhatsApp link', () => {
  it('prefixes 55 and carries a message naming the barbershop', () => {
    const link = whatsAppLink('(11) 98765-0104', confirmationMessage('Rafael Araújo', 'Navalha Centro', '2026-11-24', '09:00:00'));
    expect(link.startsWith('https://wa.me/5511987650104?text=')).toBe(true);
    expect(decodeURIComponent(link.split('text=')[1])).toBe(
      'Olá, Rafael! Aqui é da Navalha Centro. Podemos confirmar seu horário em 24/11/2026 às 09:00?',
    );
  });

  it('does not double a 55 already there', () => {
    expect(whatsAppLink('5511987650104', 'x').startsWith('https://wa.me/5511987650104?')).toBe(true);
  });
});
