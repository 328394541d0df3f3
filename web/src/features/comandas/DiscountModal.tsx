import { yupResolver } from '@hookform/resolvers/yup';
import { useForm } from 'react-hook-form';
import { Form, FormButtons } from '@/components/form/Form';
import { Modal } from '@/components/Modal';
import { notifySuccess } from '@/lib/notify';
import { useSetDiscountMutation } from './comandasApi';
import { DiscountInput } from './DiscountInput';
import { discountPayload } from './model';
import { discountSchema, type DiscountValues } from './schema';
import type { Comanda } from './types';

export const DISCOUNT_SAVED = 'Desconto aplicado.';

/** 'Desconto' on the comanda's total, in R$ or %; zero takes it off. */
export function DiscountModal({ comanda, onClose }: { comanda: Comanda; onClose: () => void }) {
  const [setDiscount] = useSetDiscountMutation();
  const form = useForm<DiscountValues>({
    resolver: yupResolver(discountSchema),
    defaultValues: { mode: 'value', amount: comanda.Discount || '' },
  });
  const save = async (values: DiscountValues) => {
    await setDiscount({ id: comanda.IdComanda, body: discountPayload(values.mode, values.amount) }).unwrap();
    notifySuccess(DISCOUNT_SAVED);
    onClose();
  };
  return (
    <Modal open title="Desconto" onClose={onClose} size="small">
      <Form
        form={form}
        onSubmit={save}
        aria-label="Desconto"
        className="comanda-form"
        serverFieldOf={{ value: 'amount', percent: 'amount', discount: 'amount' }}
      >
        <DiscountInput control={form.control} modeName="mode" amountName="amount" label="Desconto" />
        <FormButtons>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Voltar
          </button>
          <button type="submit" className="button button-primary" disabled={form.formState.isSubmitting}>
            Aplicar
          </button>
        </FormButtons>
      </Form>
    </Modal>
  );
}
