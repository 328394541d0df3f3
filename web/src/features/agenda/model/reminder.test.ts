import { describe, expect, it } from 'vitest';
import { REMINDER_FAILED_HINT, REMINDER_LABELS, reminderHint, reminderOf } from './reminder';

describe("an appointment's WhatsApp reminder (issue 44)", () => {
  it('reads each state in pt-BR', () => {
    expect(REMINDER_LABELS).toEqual({
      SENDING: 'Enviando lembrete',
      SENT: 'Lembrete enviado',
      DELIVERED: 'Lembrete entregue',
      READ: 'Lembrete lido',
      FAILED: 'Lembrete não entregue',
      SKIPPED: 'Lembrete não enviado',
    });
  });

  it('is nothing for null, a missing field or a value this screen does not know', () => {
    expect(reminderOf({ Reminder: 'READ' })).toBe('READ');
    expect(reminderOf({ Reminder: 'FAILED' })).toBe('FAILED');
    expect(reminderOf({ Reminder: null })).toBeNull();
    expect(reminderOf({})).toBeNull();
    expect(reminderOf({ Reminder: 'QUEUED' })).toBeNull();
  });

  it('asks the desk to call only when the reminder was not delivered', () => {
    expect(reminderHint('FAILED')).toBe(REMINDER_FAILED_HINT);
    expect(REMINDER_FAILED_HINT).toBe('O WhatsApp não entregou o lembrete: ligue para o cliente.');
    for (const reminder of ['SENDING', 'SENT', 'DELIVERED', 'READ', 'SKIPPED'] as const) {
      expect(reminderHint(reminder)).toBeUndefined();
    }
  });
});
