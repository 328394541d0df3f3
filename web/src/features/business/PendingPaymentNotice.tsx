import { useState } from 'react';
import { Modal } from '@/components/Modal';
import { useGetBusinessQuery } from './businessApi';

export const PENDING_PAYMENT_TITLE = 'Pagamento pendente !';
export const PENDING_PAYMENT_TEXT = 'Efetue o pagamento para continuar utilizando o sistema';

/**
 * Spec 01's notice, shown when the user's business has a payment to Navalha pending (the
 * operators' `command-api business-billing`; docs/operations.md). It shows once each time
 * the dashboard is opened (a sign-in or a reload) until 'Entendi'; nothing is blocked.
 */
export function PendingPaymentNotice() {
  const { data } = useGetBusinessQuery();
  const [understood, setUnderstood] = useState(false);
  const open = data?.BillingStatus === 'PENDING_PAYMENT' && !understood;
  return (
    <Modal
      open={open}
      title={PENDING_PAYMENT_TITLE}
      size="small"
      onClose={() => setUnderstood(true)}
      footer={
        <button type="button" className="button button-primary" onClick={() => setUnderstood(true)}>
          Entendi
        </button>
      }
    >
      <p>{PENDING_PAYMENT_TEXT}</p>
    </Modal>
  );
}
