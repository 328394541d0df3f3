// A product's photo (POST and DELETE product/{id}/image): one JPEG, PNG or WebP image of at
// most 5 MB, as the plan's image; checked here first with the server's messages.

/** The image types and size the server takes (command-api gallery). */
export const PRODUCT_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const PRODUCT_PHOTO_MAX_BYTES = 5 * 1024 * 1024;

export const PRODUCT_PHOTO_MSG = {
  type: 'Envie apenas imagens JPEG, PNG ou WebP.',
  size: 'Cada imagem deve ter no máximo 5 MB.',
  empty: 'Escolha a foto do produto.',
  saved: 'Foto do produto salva.',
  removed: 'Foto do produto removida.',
};

/** Why a chosen file cannot be the photo, in the server's words; null when it may be sent. */
export function photoRefusal(file: File): string | null {
  if (!(PRODUCT_PHOTO_TYPES as readonly string[]).includes(file.type)) return PRODUCT_PHOTO_MSG.type;
  if (file.size > PRODUCT_PHOTO_MAX_BYTES) return PRODUCT_PHOTO_MSG.size;
  // An empty part is no photo at all.
  if (file.size === 0) return PRODUCT_PHOTO_MSG.empty;
  return null;
}

/** Body of POST product/{id}/image: the one part `file`. */
export function photoFormData(file: File): FormData {
  const body = new FormData();
  body.append('file', file);
  return body;
}
