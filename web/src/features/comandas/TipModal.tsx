import { yupResolver } from '@hookform/resolvers/yup';
import { Controller, useForm } from 'react-hook-form';
import { Form, FormButtons } from '@/components/form/Form';
import { SelectField } from '@/components/form/fields';
import { Modal } from '@/components/Modal';
import { MoneyField } from '@/components/MoneyField';
import { useIdempotencyKey } from '@/lib/idempotency';
import { notifySuccess } from '@/lib/notify';
import { useAddTipMutation } from './comandasApi';
import { useUnitProfessionals } from './hooks';
import { tipSchema, type TipValues } from './schema';

export const TIP_ADDED = 'Gorjeta adicionada.';

/** 'Gorjeta' for one professional of the unit: it adds to what the client pays. */
export function TipModal({ idComanda, idCompany, onClose }: { idComanda: number; idCompany: number; onClose: () => void }) {
  const [addTip] = useAddTipMutation();
  const withKey = useIdempotencyKey();
  const professionals = useUnitProfessionals(idCompany);
  const form = useForm<TipValues>({ resolver: yupResolver(tipSchema), defaultValues: { idProfessional: 0, value: 0 } });
  const { register, control, formState } = form;
  const save = async (values: TipValues) => {
    const body = { idProfessional: values.idProfessional, value: values.value };
    await withKey((idempotencyKey) => addTip({ id: idComanda, body, idempotencyKey }).unwrap(), JSON.stringify(body));
    notifySuccess(TIP_ADDED);
    onClose();
  };
  return (
    <Modal open title="Adicionar gorjeta" onClose={onClose} size="small">
      <Form form={form} onSubmit={save} aria-label="Gorjeta" className="comanda-form">
        <SelectField
          label="Profissional"
          options={[{ value: 0, label: 'Selecione' }, ...professionals.options]}
          error={formState.errors.idProfessional?.message}
          {...register('idProfessional', { valueAsNumber: true })}
        />
        <Controller
          control={control}
          name="value"
          render={({ field, fieldState }) => (
            <MoneyField label="Valor da gorjeta" value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
          )}
        />
        <FormButtons>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Voltar
          </button>
          <button type="submit" className="button button-primary" disabled={formState.isSubmitting}>
            Adicionar
          </button>
        </FormButtons>
      </Form>
    </Modal>
  );
}
