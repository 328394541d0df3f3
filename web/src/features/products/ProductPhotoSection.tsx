import { useId, useState } from 'react';
import { FormSection } from '@/components/form/Form';
import { fieldErrorsOf } from '@/components/form/serverErrors';
import { Icon } from '@/components/Icon';
import { notifySuccess } from '@/lib/notify';
import { photoFormData, photoRefusal, PRODUCT_PHOTO_MSG, PRODUCT_PHOTO_TYPES } from './photo';
import { useRemoveProductImageMutation, useSetProductImageMutation } from './productsApi';
import type { Product } from './types';

export const PHOTO_TITLE = 'Foto do produto';

/**
 * 'Foto do produto' of a saved product: its photo, or 'Sem foto.'. ADMIN chooses a file, sent
 * at once (POST product/{id}/image, checked here first with the server's messages), or removes
 * it (DELETE); the others only see it. Not a form: nothing waits for the product's 'Salvar'.
 */
export function ProductPhotoSection({ product, canEdit }: { product: Product; canEdit: boolean }) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const [setImage, { isLoading: saving }] = useSetProductImageMutation();
  const [removeImage, { isLoading: removing }] = useRemoveProductImageMutation();
  // The refusal of the last file chosen: this screen's check or the server's 422 on `file`.
  const [error, setError] = useState<string | null>(null);
  const busy = saving || removing;
  const photo = product.UrlImage ?? null;

  const upload = async (file: File | undefined) => {
    if (!file) return;
    const refusal = photoRefusal(file);
    setError(refusal);
    if (refusal) return;
    try {
      await setImage({ id: product.IdProduct, body: photoFormData(file) }).unwrap();
      notifySuccess(PRODUCT_PHOTO_MSG.saved);
    } catch (failure) {
      // Other failures are toasted by the base query.
      setError(fieldErrorsOf(failure)?.file ?? null);
    }
  };

  const remove = async () => {
    setError(null);
    try {
      await removeImage(product.IdProduct).unwrap();
      notifySuccess(PRODUCT_PHOTO_MSG.removed);
    } catch {
      // Toasted by the base query.
    }
  };

  return (
    <div className="product-photo-section">
      <FormSection title={PHOTO_TITLE}>
        <div className="field-wide product-photo">
          <div className="product-photo-preview">
            {photo ? <img src={photo} alt={`Foto de ${product.Name}`} /> : <span className="muted">Sem foto.</span>}
          </div>
          {canEdit && (
            <div className="product-photo-actions">
              <label className={`button button-secondary product-photo-pick${busy ? ' product-photo-busy' : ''}`}>
                Escolher foto
                <input
                  type="file"
                  accept={PRODUCT_PHOTO_TYPES.join(',')}
                  className="visually-hidden"
                  disabled={busy}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${hintId} ${errorId}` : hintId}
                  onChange={(event) => {
                    void upload(event.target.files?.[0]);
                    // The same file may be chosen again.
                    event.target.value = '';
                  }}
                />
              </label>
              {photo && (
                <button type="button" className="button button-secondary" disabled={busy} onClick={() => void remove()}>
                  <Icon name="delete" /> Remover foto
                </button>
              )}
              <p id={hintId} className="muted product-photo-hint">
                JPEG, PNG ou WebP, até 5 MB.
              </p>
            </div>
          )}
          {canEdit && error && (
            <p id={errorId} className="field-error" role="alert">
              {error}
            </p>
          )}
        </div>
      </FormSection>
    </div>
  );
}
