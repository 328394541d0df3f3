import { yupResolver } from '@hookform/resolvers/yup';
import { Controller, useForm } from 'react-hook-form';
import { Form, FormSection } from '@/components/form/Form';
import { SelectField } from '@/components/form/fields';
import { applyServerErrors } from '@/components/form/serverErrors';
import { NumberField } from '@/components/NumberField';
import { useGetActiveServicesQuery } from '@/components/staff/staffApi';
import { notifySuccess } from '@/lib/notify';
import { useSetServiceUseMutation } from './productsApi';
import {
  EMPTY_SERVICE_USE,
  quantityWithUnit,
  SERVICE_USE_MSG,
  serviceUseOptions,
  serviceUseRows,
  serviceUseSchema,
  USE_QUANTITY_MAX,
  type ServiceUseRow,
  type ServiceUseValues,
} from './serviceUses';
import type { Product } from './types';

export const SERVICE_USES_TITLE = 'Uso em serviços';
export const SERVICE_USES_HINT =
  'Quanto deste produto cada serviço usa a cada vez que é feito; ao fechar a comanda, sai do estoque da unidade.';

/**
 * 'Uso em serviços' (issue 43) of a saved product, for ADMIN: the catalogue services that use it
 * and how much, each saved on its own (PUT service/{idService}/products/{idProduct}). A form of
 * its own, after the product's: forms do not nest. Adding a service again replaces its quantity.
 */
export function ServiceUsesSection({ product }: { product: Product }) {
  const { data: catalogue } = useGetActiveServicesQuery();
  const [setServiceUse, { isLoading: saving }] = useSetServiceUseMutation();
  const form = useForm<ServiceUseValues>({
    resolver: yupResolver(serviceUseSchema),
    defaultValues: EMPTY_SERVICE_USE,
  });
  const {
    register,
    control,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = form;
  // A server from before issue 43 answers without the uses.
  const usedBy = product.UsedBy ?? [];
  const rows = serviceUseRows(usedBy, catalogue ?? []);
  const options = serviceUseOptions(usedBy, catalogue ?? []);

  const save = async (idService: number, quantity: number) => {
    await setServiceUse({ idService, idProduct: product.IdProduct, quantity }).unwrap();
    notifySuccess(SERVICE_USE_MSG.saved);
  };

  // A 422 lands on 'Quantidade por serviço' (Form); other failures are toasted by the base query.
  const add = async (values: ServiceUseValues) => {
    await save(Number(values.idService), Number(values.quantity));
    reset(EMPTY_SERVICE_USE);
  };

  const remove = async (row: ServiceUseRow) => {
    try {
      await save(row.idService, 0);
    } catch (failure) {
      applyServerErrors(failure, setError, ['quantity']);
    }
  };

  return (
    <Form form={form} onSubmit={add} className="product-uses-form">
      <FormSection title={SERVICE_USES_TITLE}>
        <p className="muted product-minimums-hint field-wide">{SERVICE_USES_HINT}</p>
        {!catalogue ? (
          <p className="muted field-wide product-uses-none">Carregando...</p>
        ) : rows.length === 0 ? (
          <p className="muted field-wide product-uses-none">Nenhum serviço usa este produto.</p>
        ) : (
          <ul className="product-uses field-wide" aria-label="Serviços que usam este produto">
            {rows.map((row) => (
              <li key={row.idService} className="product-use">
                <span className="product-use-service">{row.description}</span>
                <span className="product-use-quantity">{quantityWithUnit(row.quantity, product.Unit)}</span>
                <button
                  type="button"
                  className="button button-secondary button-small"
                  aria-label={`Remover ${row.description}`}
                  disabled={saving}
                  onClick={() => void remove(row)}
                >
                  Remover
                </button>
              </li>
            ))}
          </ul>
        )}
        <SelectField label="Serviço" options={options} error={errors.idService?.message} {...register('idService', { valueAsNumber: true })} />
        <div className="product-use-amount">
          <Controller
            control={control}
            name="quantity"
            render={({ field, fieldState }) => (
              <NumberField
                label="Quantidade por serviço"
                value={field.value}
                onChange={field.onChange}
                minValue={0}
                maxValue={USE_QUANTITY_MAX}
                error={fieldState.error?.message}
              />
            )}
          />
          <span className="muted product-use-unit">{product.Unit}</span>
        </div>
        <div className="product-use-add">
          <button type="submit" className="button button-primary" disabled={isSubmitting || saving}>
            Adicionar uso
          </button>
        </div>
      </FormSection>
    </Form>
  );
}
