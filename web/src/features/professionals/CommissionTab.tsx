import { yupResolver } from '@hookform/resolvers/yup';
import { useEffect, useMemo } from 'react';
import { Controller, useFieldArray, useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { Icon } from '@/components/Icon';
import { MoneyField } from '@/components/MoneyField';
import { TextField } from '@/components/TextField';
import { Form, FormButtons, FormSection } from '@/components/form/Form';
import { CheckboxField, SelectField } from '@/components/form/fields';
import { applyServerErrors } from '@/components/form/serverErrors';
import { useGetOfferedServicesQuery } from '@/components/staff/staffApi';
import { notifySuccess } from '@/lib/notify';
import { useGetCommissionQuery, useSetCommissionMutation } from './professionalsApi';
import {
  COMMISSION_KIND_OPTIONS,
  commissionSchema,
  emptyServiceRate,
  parsePercent,
  percentText,
  type CommissionValues,
} from './schemas';
import type { CommissionAnswer, CommissionPayload } from './types';

export const COMMISSION_TEXT = {
  fromNow: 'As comissões valem a partir de agora: comandas já fechadas mantêm o que renderam.',
  unset: 'Nenhuma comissão definida: os serviços rendem 0%.',
  saved: 'Comissões salvas com sucesso!',
};

/** The form's values of the rates in force. */
export function commissionValuesOf(answer: CommissionAnswer): CommissionValues {
  return {
    servicePercent: percentText(answer.ServicePercent),
    productPercent: percentText(answer.ProductPercent),
    cardFeeShared: answer.CardFeeShared,
    partner: answer.Partner,
    services: answer.Services.map((service) =>
      service.Fixed != null
        ? { idService: service.IdService, kind: 'fixed', percent: '', fixed: service.Fixed }
        : { idService: service.IdService, kind: 'percent', percent: percentText(service.Percent ?? 0), fixed: 0 },
    ),
  };
}

/** PUT professional/{id}/commission: each service with its percent or its fixed amount, never both. */
export function commissionPayloadOf(values: CommissionValues): CommissionPayload {
  return {
    servicePercent: parsePercent(values.servicePercent),
    productPercent: parsePercent(values.productPercent),
    services: values.services.map((row) =>
      row.kind === 'fixed' ? { idService: row.idService, fixed: row.fixed } : { idService: row.idService, percent: parsePercent(row.percent) },
    ),
    cardFeeShared: values.cardFeeShared,
    partner: values.partner,
  };
}

/** A row's fields as the server's 422 names them (`services.0.percent`). */
const rowFields = (rows: number) =>
  Array.from({ length: rows }, (_, index) => ['idService', 'percent', 'fixed'].map((field) => `services.${index}.${field}`)).flat();

interface CommissionTabProps {
  idProfessional: number;
  canEdit: boolean;
}

/** The 'Comissões' tab (issue 42): the professional's rates, edited by ADMIN, read by the others. */
export function CommissionTab({ idProfessional, canEdit }: CommissionTabProps) {
  const { data, isLoading, isError } = useGetCommissionQuery(idProfessional);
  return (
    <div className="commission-tab">
      <p className="muted commission-note">{COMMISSION_TEXT.fromNow}</p>
      {data && !data.Set && <p className="commission-unset">{COMMISSION_TEXT.unset}</p>}
      {data ? (
        <CommissionForm idProfessional={idProfessional} answer={data} canEdit={canEdit} />
      ) : (
        <p className="empty">{isLoading ? 'Carregando...' : isError ? 'Não foi possível carregar as comissões.' : ''}</p>
      )}
    </div>
  );
}

interface CommissionFormProps extends CommissionTabProps {
  answer: CommissionAnswer;
}

function CommissionForm({ idProfessional, answer, canEdit }: CommissionFormProps) {
  const schema = useMemo(() => commissionSchema(), []);
  const form = useForm<CommissionValues>({ resolver: yupResolver(schema), defaultValues: commissionValuesOf(answer) });
  const { register, control, formState, reset } = form;
  const errors = formState.errors;
  const rows = useFieldArray({ control, name: 'services' });
  const [setCommission] = useSetCommissionMutation();
  // The services the professional offers (the 'Serviços' tab's call); only the one who edits picks.
  const { data: offered } = useGetOfferedServicesQuery({ kind: 'professional', idProfessional }, { skip: !canEdit });

  // The rates read again after a save show as saved (the server's own writing of a percent).
  useEffect(() => {
    reset(commissionValuesOf(answer));
  }, [answer, reset]);

  const serviceOptions = useMemo(() => {
    const names = new Map<number, string>();
    for (const service of offered ?? []) if (service.Status && !names.has(service.IdService)) names.set(service.IdService, service.Description);
    // A service with a rate of its own stays listed, even if no longer offered.
    for (const service of answer.Services) {
      if (!names.has(service.IdService)) names.set(service.IdService, service.Description || `Serviço N.º ${service.IdService}`);
    }
    return [{ value: 0, label: 'Selecione' }, ...[...names].map(([value, label]) => ({ value, label }))];
  }, [offered, answer.Services]);

  const save = async (values: CommissionValues) => {
    try {
      await setCommission({ id: idProfessional, body: commissionPayloadOf(values) }).unwrap();
    } catch (failure) {
      // Form puts a 422 on the top-level fields; the rows' (services.N.field) land here.
      applyServerErrors(failure, form.setError, rowFields(values.services.length));
      throw failure;
    }
    notifySuccess(COMMISSION_TEXT.saved);
  };

  return (
    <Form form={form} onSubmit={save} aria-label="Comissões" className="commission-form">
      {/* Only ADMIN sets rates; the others read them. */}
      <fieldset className="plain-fieldset" disabled={!canEdit}>
        <FormSection title="Comissão padrão">
          <TextField
            label="Comissão em serviços (%)"
            inputMode="decimal"
            autoComplete="off"
            maxLength={6}
            error={errors.servicePercent?.message}
            {...register('servicePercent')}
          />
          <TextField
            label="Comissão em produtos (%)"
            inputMode="decimal"
            autoComplete="off"
            maxLength={6}
            error={errors.productPercent?.message}
            {...register('productPercent')}
          />
          <CheckboxField label="Dividir a taxa da maquininha de cartão" className="field-wide" {...register('cardFeeShared')} />
          <CheckboxField
            label="Profissional-parceiro (Lei 13.352/2016): o extrato mostra as cota-partes"
            className="field-wide"
            {...register('partner')}
          />
        </FormSection>
        <FormSection title="Comissão por serviço">
          {rows.fields.length === 0 && (
            <p className="muted field-wide commission-none">Nenhum serviço com comissão própria: valem as porcentagens acima.</p>
          )}
          {rows.fields.map((row, index) => (
            <ServiceRateRow
              key={row.id}
              index={index}
              form={form}
              options={serviceOptions}
              canEdit={canEdit}
              onRemove={() => rows.remove(index)}
            />
          ))}
          {canEdit && (
            <div className="field-wide">
              <button type="button" className="button button-secondary" onClick={() => rows.append({ ...emptyServiceRate })}>
                <Icon name="add" /> Adicionar serviço
              </button>
            </div>
          )}
        </FormSection>
      </fieldset>
      {canEdit && (
        <FormButtons>
          <button type="submit" className="button button-primary" disabled={formState.isSubmitting}>
            Salvar
          </button>
        </FormButtons>
      )}
    </Form>
  );
}

interface ServiceRateRowProps {
  index: number;
  form: UseFormReturn<CommissionValues>;
  options: { value: number; label: string }[];
  canEdit: boolean;
  onRemove: () => void;
}

/** One service with its own rate: the service, the kind of rate, then the percent or the fixed amount. */
function ServiceRateRow({ index, form, options, canEdit, onRemove }: ServiceRateRowProps) {
  const { register, control, formState } = form;
  const kind = useWatch({ control, name: `services.${index}.kind` });
  const errors = formState.errors.services?.[index];
  const name = `Serviço ${index + 1}`;
  return (
    <fieldset className="commission-row field-wide">
      <legend className="visually-hidden">{name}</legend>
      <SelectField
        label="Serviço"
        className="commission-service"
        options={options}
        error={errors?.idService?.message}
        {...register(`services.${index}.idService`, { valueAsNumber: true })}
      />
      <SelectField label="Tipo" className="commission-kind" options={COMMISSION_KIND_OPTIONS} {...register(`services.${index}.kind`)} />
      <div className="commission-value">
        {kind === 'fixed' ? (
          <Controller
            control={control}
            name={`services.${index}.fixed`}
            render={({ field, fieldState }) => (
              <MoneyField
                label="Valor fixo"
                value={field.value}
                onChange={field.onChange}
                disabled={!canEdit}
                // The server's 'percent or fixed, not both' lands on percent: shown here too.
                error={fieldState.error?.message ?? errors?.percent?.message}
              />
            )}
          />
        ) : (
          <TextField
            label="Porcentagem (%)"
            inputMode="decimal"
            autoComplete="off"
            maxLength={6}
            error={errors?.percent?.message}
            {...register(`services.${index}.percent`)}
          />
        )}
      </div>
      {canEdit && (
        <button type="button" className="icon-button commission-remove" aria-label={`Remover ${name.toLowerCase()}`} title="Remover" onClick={onRemove}>
          <Icon name="delete" />
        </button>
      )}
    </fieldset>
  );
}
