import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { APIRequestContext } from '@playwright/test';
import { expect } from './fixtures';
import { ADMIN, apiToken } from './support';

// Data the units test makes for itself: CNPJs unique per run and small PNG images; and a
// unit's 'Lembretes' put back through the API.

const CNPJ_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Check digits of a CNPJ's first 12 characters (Receita Federal: each weighs its ASCII code minus 48). */
function withCheckDigits(base: string): string {
  let chars = base;
  for (const weights of [
    [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
    [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
  ]) {
    const sum = weights.reduce((total, weight, i) => total + weight * (chars.charCodeAt(i) - 48), 0);
    const rest = sum % 11;
    chars += String(rest < 2 ? 0 : 11 - rest);
  }
  return chars;
}

/** A valid CNPJ (14 characters, no mask); `alphanumeric` puts letters among the first 12. */
export function randomCnpj(alphanumeric = false): string {
  const pool = alphanumeric ? CNPJ_CHARS : CNPJ_CHARS.slice(0, 10);
  let base = '';
  while (base.length < 12) base += pool[Math.floor(Math.random() * pool.length)];
  if (alphanumeric && !/[A-Z]/.test(base)) base = `A${base.slice(1)}`;
  if (/^(.)\1+$/.test(base)) base = `1${base.slice(1, 11)}2`;
  return withCheckDigits(base);
}

/** 99.999.999/9999-99 (letters kept). */
export const maskedCnpj = (cnpj: string) =>
  `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A solid-colour RGB PNG; a random touch makes each run's images new to the server. */
export function solidPng(rgb: [number, number, number], width = 64, height = 48): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x += 1) row.set(rgb, 1 + x * 3);
  const rows = Array.from({ length: height }, () => Buffer.from(row));
  // One random pixel: the same colour in another run is another file.
  rows[0].set([Math.floor(Math.random() * 256), Math.floor(Math.random() * 256), 0], 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The name the server stores an image under (its SHA-256), which ends its URL. */
export const storedName = (png: Buffer) => `${createHash('sha256').update(png).digest('hex')}.png`;

/**
 * Changes some of a unit's settings through the API (`changes` in the form's names, e.g.
 * `{ remindersBefore24h: true }`): its form as GET company/{id} answers it, with the changes;
 * the settings left out (online rules, commissions...) keep theirs.
 */
export async function setUnitSettings(request: APIRequestContext, idCompany: number, changes: Record<string, unknown>) {
  const headers = { Authorization: `Bearer ${await apiToken(request, ADMIN.email)}` };
  const read = await request.get(`/api/company/${idCompany}`, { headers });
  expect(read.ok(), await read.text()).toBeTruthy();
  const unit = (await read.json()) as Record<string, unknown>;
  const written = await request.put(`/api/company/${idCompany}`, {
    headers,
    data: {
      name: unit.Name,
      cnpj: unit.Cnpj,
      email: unit.Email,
      phone: unit.Phone,
      whatsApp: unit.WhatsApp,
      status: unit.Status,
      facebook: unit.Facebook,
      instagram: unit.Instagram,
      observation: unit.Observation ?? '',
      zipCode: unit.ZipCode,
      street: unit.Street,
      number: unit.Number,
      complement: unit.Complement ?? '',
      district: unit.District,
      city: unit.City,
      state: unit.State,
      // '' is the zone its address gives.
      timeZone: unit.TimeZoneFromAddress === false ? unit.TimeZone : '',
      ...changes,
    },
  });
  expect(written.ok(), await written.text()).toBeTruthy();
}

/** Sets a unit's 'Lembretes' (issue 44). */
export const setReminders = (request: APIRequestContext, idCompany: number, before24h: boolean, before2h: boolean) =>
  setUnitSettings(request, idCompany, { remindersBefore24h: before24h, remindersBefore2h: before2h });
