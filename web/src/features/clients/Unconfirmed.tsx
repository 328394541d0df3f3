import { notifySuccess } from '@/lib/notify';
import { useConfirmClientMutation } from './clientsApi';

// Issue 39: a record the client made on a unit's public page proves only an e-mailed code.
// Staff see it marked until they confirm it; until then its online bookings count as a
// newcomer's (docs/online-booking.md 'Newcomers').

export const UNCONFIRMED_LABEL = 'Não confirmado';
export const UNCONFIRMED_TITLE = 'Cadastro feito online pelo cliente, ainda não confirmado pela barbearia';
export const UNCONFIRMED_NOTICE =
  'Cadastro feito pelo próprio cliente na página de agendamento online e ainda não confirmado pela barbearia. Confira os dados com o cliente antes de confirmar.';
export const CONFIRMED_MESSAGE = 'Cadastro confirmado com sucesso!';

/** The list's mark on an unconfirmed record. */
export function UnconfirmedBadge() {
  return (
    <span className="badge badge-warning" title={UNCONFIRMED_TITLE}>
      {UNCONFIRMED_LABEL}
    </span>
  );
}

/** The form's notice, with 'Confirmar cadastro' for the roles that edit clients. */
export function UnconfirmedNotice({ idUser, canConfirm }: { idUser: number; canConfirm: boolean }) {
  const [confirmClient, { isLoading }] = useConfirmClientMutation();
  const confirm = async () => {
    try {
      await confirmClient(idUser).unwrap();
      notifySuccess(CONFIRMED_MESSAGE);
    } catch {
      // The base query showed the server's message.
    }
  };
  return (
    <div className="client-unconfirmed" role="status">
      <p>{UNCONFIRMED_NOTICE}</p>
      {canConfirm && (
        <button type="button" className="button button-primary" disabled={isLoading} onClick={() => void confirm()}>
          Confirmar cadastro
        </button>
      )}
    </div>
  );
}
