import { yupResolver } from '@hookform/resolvers/yup';
import { Controller, useForm } from 'react-hook-form';
import { useGetOfferedServicesQuery } from '@/components/staff/staffApi';
import { Form, FormButtons } from '@/components/form/Form';
import { SelectField } from '@/components/form/fields';
import { Modal } from '@/components/Modal';
import { NumberField } from '@/components/NumberField';
import { useGetUnitServicesQuery } from '@/features/agenda/api/agendaApi';
import { useGetProductsQuery } from '@/features/products/productsApi';
import { useIdempotencyKey } from '@/lib/idempotency';
import { formatBRL } from '@/lib/money';
import { notifySuccess } from '@/lib/notify';
import { useAddItemMutation } from './comandasApi';
import { DiscountInput } from './DiscountInput';
import { useUnitProfessionals } from './hooks';
import { itemPayload, serviceChoices, type ItemValues } from './model';
import { itemSchema } from './schema';

export const ITEM_ADDED = 'Item adicionado.';

/** Every product still sold, for the picker (the list's largest page). */
const ACTIVE_PRODUCTS = { page: 1, pageSize: 100, search: '', status: '1' };

interface ItemModalProps {
  idComanda: number;
  idCompany: number;
  kind: 'service' | 'product';
  /** Whether the user may read a professional's own services and prices (ADMIN). */
  readsOffered: boolean;
  onClose: () => void;
}

/** 'Adicionar serviço' (professional, then one of their services) and 'Adicionar produto'. */
export function ItemModal({ idComanda, idCompany, kind, readsOffered, onClose }: ItemModalProps) {
  const [addItem] = useAddItemMutation();
  const withKey = useIdempotencyKey();
  const form = useForm<ItemValues>({
    resolver: yupResolver(itemSchema),
    defaultValues: { kind, id: 0, idProfessional: 0, quantity: 1, discountMode: 'value', discount: '' },
  });
  const { register, control, watch, setValue, formState } = form;
  const { errors, isSubmitting } = formState;
  const idProfessional = Number(watch('idProfessional'));

  const professionals = useUnitProfessionals(idCompany);
  const unitServices = useGetUnitServicesQuery(idCompany, { skip: kind !== 'service' });
  const offered = useGetOfferedServicesQuery(
    { kind: 'professional', idProfessional },
    { skip: kind !== 'service' || !readsOffered || !idProfessional },
  );
  const products = useGetProductsQuery(ACTIVE_PRODUCTS, { skip: kind !== 'product' });

  const services = serviceChoices(unitServices.data, readsOffered ? offered.data : undefined);
  const choose = [{ value: 0, label: 'Selecione' }];
  const serviceOptions = [
    ...choose,
    ...services.map((s) => ({ value: s.id, label: `${s.label} · ${s.exact ? '' : 'até '}${formatBRL(s.price)}` })),
  ];
  const productOptions = [
    ...choose,
    ...(products.data?.content ?? []).map((p) => ({ value: p.IdProduct, label: `${p.Name} · ${formatBRL(p.Price)}` })),
  ];

  const save = async (values: ItemValues) => {
    const body = itemPayload(values);
    await withKey((idempotencyKey) => addItem({ id: idComanda, body, idempotencyKey }).unwrap(), JSON.stringify(body));
    notifySuccess(ITEM_ADDED);
    onClose();
  };

  const title = kind === 'service' ? 'Adicionar serviço' : 'Adicionar produto';
  return (
    <Modal open title={title} onClose={onClose} size="small">
      <Form
        form={form}
        onSubmit={save}
        aria-label={title}
        className="comanda-form"
        serverFieldOf={{ discountPercent: 'discount', price: 'id', kind: 'id' }}
      >
        {kind === 'service' && (
          <SelectField
            label="Profissional"
            options={[...choose, ...professionals.options]}
            error={errors.idProfessional?.message}
            {...register('idProfessional', {
              valueAsNumber: true,
              // Another professional offers other services.
              onChange: () => setValue('id', 0),
            })}
          />
        )}
        {kind === 'service' ? (
          <SelectField
            label="Serviço"
            options={serviceOptions}
            disabled={!idProfessional}
            error={errors.id?.message}
            {...register('id', { valueAsNumber: true })}
          />
        ) : (
          <SelectField label="Produto" options={productOptions} error={errors.id?.message} {...register('id', { valueAsNumber: true })} />
        )}
        <Controller
          control={control}
          name="quantity"
          render={({ field, fieldState }) => (
            <NumberField
              label="Quantidade"
              value={field.value}
              onChange={field.onChange}
              minValue={1}
              maxValue={999}
              error={fieldState.error?.message}
            />
          )}
        />
        <DiscountInput control={control} modeName="discountMode" amountName="discount" label="Desconto do item" />
        <FormButtons>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Voltar
          </button>
          <button type="submit" className="button button-primary" disabled={isSubmitting}>
            Adicionar
          </button>
        </FormButtons>
      </Form>
    </Modal>
  );
}
