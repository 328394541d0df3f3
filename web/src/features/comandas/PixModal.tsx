import { useId, useRef } from 'react';
import { FormButtons } from '@/components/form/Form';
import { Icon } from '@/components/Icon';
import { Modal } from '@/components/Modal';
import { formatBRL } from '@/lib/money';
import { notifyError, notifySuccess } from '@/lib/notify';
import { PIX_MSG, pixStatusText, type PixShown } from './model';
import type { Comanda } from './types';

interface PixModalProps {
  /** The comanda as last read: it says whether the charge was paid (read again live and, while waiting, every 5 s). */
  comanda: Comanda;
  /** The charge to show, as the payment answered it or as the comanda lists it. */
  charge: PixShown;
  onClose: () => void;
}

/** Copies text to the clipboard; false where the browser refuses (an insecure origin, no permission). */
async function copyToClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Pix at the counter (docs/money.md 'Pix at the counter'): the QR code the client scans,
 * the 'copia e cola' text, the provider's page for the client's phone, and whether the
 * client has paid, as the comanda says. Closing it leaves the charge waiting: the payments
 * list shows it again.
 */
export function PixModal({ comanda, charge, onClose }: PixModalProps) {
  const codeId = useId();
  const code = useRef<HTMLTextAreaElement>(null);
  const listed = comanda.PixCharges.find((c) => c.GalaxPayId === charge.GalaxPayId);
  const shown = listed ?? charge;
  const status = listed?.Status ?? 'PENDING';
  const pending = status === 'PENDING';

  const copy = async () => {
    if (await copyToClipboard(shown.PixCopyPaste)) {
      notifySuccess(PIX_MSG.copied);
    } else {
      // Left selected in the field, to copy by hand.
      code.current?.focus();
      code.current?.select();
      notifyError(PIX_MSG.copyFailed);
    }
  };

  return (
    <Modal open title="Pagamento por Pix" onClose={onClose} size="small">
      <div className="comanda-pix" data-galaxpay-id={charge.GalaxPayId}>
        <p className="comanda-pix-value">
          Valor <strong>{formatBRL(shown.Value)}</strong>
        </p>
        <p role="status" className={`comanda-pix-status comanda-pix-status-${status.toLowerCase()}`}>
          {status === 'PAID' && <Icon name="verified" />}
          {pixStatusText(status)}
        </p>
        {pending && (
          <>
            <img className="comanda-pix-qr" src={shown.PixQrCode} alt="QR Code do Pix" width={240} height={240} />
            <div className="comanda-pix-copy">
              <div className="field">
                <div className="field-control">
                  <textarea id={codeId} ref={code} value={shown.PixCopyPaste} readOnly rows={4} placeholder=" " />
                  <label htmlFor={codeId}>Pix copia e cola</label>
                </div>
              </div>
              <button type="button" className="button button-secondary comanda-touch" onClick={() => void copy()}>
                Copiar
              </button>
            </div>
            {shown.PixPage && (
              <a className="button button-outline comanda-touch" href={shown.PixPage} target="_blank" rel="noopener noreferrer">
                Abrir no celular do cliente
              </a>
            )}
            <p className="muted comanda-pix-hint">
              Pode fechar esta janela: a cobrança continua aguardando em Pagamentos, e a comanda mostra quando o cliente pagar.
            </p>
          </>
        )}
      </div>
      <FormButtons>
        <button type="button" className={`button ${pending ? 'button-secondary' : 'button-primary'} comanda-touch`} onClick={onClose}>
          {pending ? 'Voltar à comanda' : 'Concluir'}
        </button>
      </FormButtons>
    </Modal>
  );
}
