import type { GalleryImageDto } from './types';

// The gallery's client state and its multipart body, kept apart from the screen so they are
// tested as plain functions. Order rule (docs/back-office.md 'Gallery order' and
// command-api/src/gallery.rs): the repeated `idGalleryCompanies` parts give the final order;
// an id keeps that image, an empty value takes the next `file` part, in the order the files
// are sent. Images left out are removed.

/** Spec 02 §9. */
export const MAX_GALLERY_IMAGES = 5;
/** The server's limit per image. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

// The server's texts for the same refusals (docs/back-office.md).
export const MSG_TOO_MANY = 'A galeria aceita no máximo 5 imagens.';
export const MSG_BAD_TYPE = 'Envie apenas imagens JPEG, PNG ou WebP.';
export const MSG_TOO_BIG = 'Cada imagem deve ter no máximo 5 MB.';

/** An image as the screen holds it: a saved one (id) or a picked file not sent yet. */
export interface GalleryItem {
  key: string;
  /** IdGalleryCompany, or null for a new file. */
  id: number | null;
  url: string;
  file?: File;
}

/** The saved images, by Sequence. */
export function fromServer(images: readonly GalleryImageDto[]): GalleryItem[] {
  return [...images]
    .sort((a, b) => a.Sequence - b.Sequence)
    .map((image) => ({ key: `id-${image.IdGalleryCompany}`, id: image.IdGalleryCompany, url: image.Url }));
}

/** The list with the item at `from` moved to `to` (both clamped to the list). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const last = items.length - 1;
  if (from < 0 || from > last) return [...items];
  const target = Math.max(0, Math.min(last, to));
  const out = [...items];
  const [moved] = out.splice(from, 1);
  out.splice(target, 0, moved);
  return out;
}

let newKeys = 0;

/**
 * Adds picked or dropped files after the current images: only JPEG, PNG or WebP of at most
 * 5 MB, and only up to 5 images in all. `refused` is the first reason a file was left out,
 * naming the file ('logo.gif: Envie apenas imagens JPEG, PNG ou WebP.'), as the server does.
 */
export function addFiles(
  items: readonly GalleryItem[],
  files: readonly File[],
  urlOf: (file: File) => string,
): { items: GalleryItem[]; refused: string | null } {
  const out = [...items];
  let refused: string | null = null;
  for (const file of files) {
    const reason = !(ACCEPTED_TYPES as readonly string[]).includes(file.type)
      ? MSG_BAD_TYPE
      : file.size > MAX_IMAGE_BYTES
        ? MSG_TOO_BIG
        : out.length >= MAX_GALLERY_IMAGES
          ? MSG_TOO_MANY
          : null;
    if (reason) {
      refused ??= reason === MSG_TOO_MANY ? reason : `${file.name}: ${reason}`;
      continue;
    }
    newKeys += 1;
    out.push({ key: `new-${newKeys}`, id: null, url: urlOf(file), file });
  }
  return { items: out, refused };
}

/** The parts of PUT gallery-company/{id}: one id per image in order ('' for new), new files in order. */
export function galleryParts(items: readonly GalleryItem[]): { ids: string[]; files: File[] } {
  return {
    ids: items.map((item) => (item.id === null ? '' : String(item.id))),
    files: items.flatMap((item) => (item.id === null && item.file ? [item.file] : [])),
  };
}

/** The multipart body: repeated `idGalleryCompanies`, then repeated `file`. */
export function galleryFormData(items: readonly GalleryItem[]): FormData {
  const { ids, files } = galleryParts(items);
  const body = new FormData();
  for (const id of ids) body.append('idGalleryCompanies', id);
  for (const file of files) body.append('file', file, file.name);
  return body;
}
