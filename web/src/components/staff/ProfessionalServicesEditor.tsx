import { yupResolver } from '@hookform/resolvers/yup';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Form, FormButtons, FormSection } from '@/components/form/Form';
import { SelectField, STATUS_OPTIONS } from '@/components/form/fields';
import { DataTable, stopRowClick, type Column } from '@/components/list/ListPage';
import { Modal } from '@/components/Modal';
import { NumberField } from '@/components/NumberField';
import { formatBRL } from '@/lib/money';
import { notifySuccess } from '@/lib/notify';
import { Icon } from '@/components/Icon';
import {
  SERVICE_MAX_INTERVAL_AFTER,
  SERVICE_MAX_MINUTES,
  SERVICE_MONEY_MAX_DIGITS,
  serviceSchema,
  type ServiceFormValues,
} from './schemas';
import { useIdempotencyKey } from '@/lib/idempotency';
import {
  useCreateOfferedServiceMutation,
  useGetActiveServicesQuery,
  useGetOfferedServicesQuery,
  useUpdateOfferedServiceMutation,
} from './staffApi';
import type { OfferedService, StaffTarget } from './types';
import './staff.css';

interface Props {
  target: StaffTarget;
  canEdit: boolean;
}

/** The services a professional performs, with their own time and price. */
export function ProfessionalServicesEditor({ target, canEdit }: Props) {
  const { data, isLoading } = useGetOfferedServicesQuery(target);
  // null: closed; 'new': 'Novo Serviço'; a row: editing it.
  const [editing, setEditing] = useState<OfferedService | 'new' | null>(null);

  const columns: Column<OfferedService>[] = [
    { header: 'Serviço', cell: (s) => s.Description },
    { header: 'Tempo', cell: (s) => `${s.Time} min` },
    { header: 'Valor', cell: (s) => formatBRL(s.Value) },
    { header: 'Intervalo após', cell: (s) => (s.IntervalAfter ? `${s.IntervalAfter} min` : '—') },
    { header: 'Combo', cell: (s) => (s.Combo ? 'Sim' : 'Não') },
    { header: 'Status', cell: (s) => (s.Status ? 'Ativo' : 'Inativo') },
  ];
  if (canEdit) {
    columns.push({
      header: 'Ações',
      className: 'table-actions',
      cell: (s) => (
        <button
          type="button"
          className="icon-button"
          aria-label={`Editar ${s.Description}`}
          title="Editar"
          {...stopRowClick}
          onClick={(event) => {
            event.stopPropagation();
            setEditing(s);
          }}
        >
          <Icon name="edit" />
        </button>
      ),
    });
  }

  return (
    <section className="staff-editor" aria-label="Serviços">
      {canEdit && (
        <div className="staff-editor-actions">
          <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
            Novo Serviço
          </button>
        </div>
      )}
      <DataTable
        label="Serviços"
        columns={columns}
        rows={data}
        rowKey={(s) => s.IdCompanyProfessionalService}
        onRowClick={canEdit ? setEditing : undefined}
        emptyText="Nenhum serviço encontrado"
        loading={isLoading}
      />
      {editing && (
        <ServiceModal
          target={target}
          editing={editing === 'new' ? null : editing}
          offered={data ?? []}
          onClose={() => setEditing(null)}
        />
      )}
    </section>
  );
}

interface ModalProps {
  target: StaffTarget;
  /** The row being edited, or null for a new service. */
  editing: OfferedService | null;
  offered: OfferedService[];
  onClose: () => void;
}

function ServiceModal({ target, editing, offered, onClose }: ModalProps) {
  const { data: catalogue } = useGetActiveServicesQuery();
  const [create] = useCreateOfferedServiceMutation();
  const [update] = useUpdateOfferedServiceMutation();
  // A retried request is not a second service.
  const withKey = useIdempotencyKey();

  const form = useForm<ServiceFormValues>({
    resolver: yupResolver(serviceSchema) as never,
    defaultValues: editing
      ? {
          idService: editing.IdService,
          time: editing.Time,
          value: editing.Value,
          status: String(editing.Status),
          intervalAfter: editing.IntervalAfter || '',
        }
      : { idService: 0, time: '', value: '', status: 'true', intervalAfter: '' },
  });
  const { register, control, formState, setValue } = form;

  // A service already offered is not offered again, except the one being edited.
  const taken = new Set(offered.filter((s) => s.IdService !== editing?.IdService).map((s) => s.IdService));
  const choices = (catalogue ?? []).filter((s) => !taken.has(s.IdService));
  if (editing && !choices.some((s) => s.IdService === editing.IdService))
    choices.unshift({ IdService: editing.IdService, Description: editing.Description, ValueDefault: editing.Value, TimeDefault: editing.Time });
  const options = [{ value: 0, label: 'Selecione' }, ...choices.map((s) => ({ value: s.IdService, label: s.Description }))];

  const prefill = (idService: number) => {
    const chosen = choices.find((s) => s.IdService === idService);
    if (!chosen) return;
    const validate = { shouldValidate: formState.isSubmitted };
    setValue('time', chosen.TimeDefault, validate);
    setValue('value', chosen.ValueDefault, validate);
  };

  const save = async (values: ServiceFormValues) => {
    const body = {
      idService: values.idService,
      time: Number(values.time),
      value: Number(values.value),
      status: values.status === 'true',
      intervalAfter: Number(values.intervalAfter || 0),
    };
    if (editing) {
      await update({ target, id: editing.IdCompanyProfessionalService, body }).unwrap();
      notifySuccess('Serviço atualizado com sucesso.');
    } else {
      await withKey((idempotencyKey) => create({ target, body, idempotencyKey }).unwrap());
      notifySuccess('Serviço cadastrado com sucesso.');
    }
    onClose();
  };

  return (
    <Modal open title={editing ? 'Editar Serviço' : 'Novo Serviço'} onClose={onClose} size="small">
      <Form form={form} onSubmit={save} className="staff-service-form">
        <FormSection>
          <SelectField
            label="Serviço"
            className="field-wide"
            options={options}
            error={formState.errors.idService?.message}
            {...register('idService', { valueAsNumber: true, onChange: (event) => prefill(Number(event.target.value)) })}
          />
          <Controller
            control={control}
            name="time"
            render={({ field, fieldState }) => (
              <NumberField
                label="Tempo (minutos)"
                value={field.value}
                onChange={field.onChange}
                maxValue={SERVICE_MAX_MINUTES}
                maxLength={3}
                error={fieldState.error?.message}
              />
            )}
          />
          <Controller
            control={control}
            name="value"
            render={({ field, fieldState }) => (
              <ServiceMoneyField label="Valor" value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
            )}
          />
          <Controller
            control={control}
            name="intervalAfter"
            render={({ field, fieldState }) => (
              <NumberField
                label="Intervalo após (minutos)"
                value={field.value}
                onChange={field.onChange}
                maxValue={SERVICE_MAX_INTERVAL_AFTER}
                maxLength={3}
                error={fieldState.error?.message}
              />
            )}
          />
          <SelectField label="Status" options={STATUS_OPTIONS} error={formState.errors.status?.message} {...register('status')} />
        </FormSection>
        <FormButtons>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Cancelar
          </button>
          <button type="submit" className="button button-primary" disabled={formState.isSubmitting}>
            Salvar
          </button>
        </FormButtons>
      </Form>
    </Modal>
  );
}

/**
 * BRL input that may be empty (so 'O campo Valor é obrigatório' can show) and takes at most
 * 9 digits (R$ 9.999.999,99, spec 02 §5 'money input max length 9'). The shared MoneyField
 * always holds a number.
 */
function ServiceMoneyField({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: number | '';
  onChange: (value: number | '') => void;
  error?: string;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <div className="field-control">
        <input
          id={id}
          inputMode="numeric"
          placeholder=" "
          autoComplete="off"
          value={value === '' ? '' : formatBRL(value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => {
            const digits = event.target.value.replace(/\D/g, '').replace(/^0+(?=\d)/, '');
            if (digits === '') return onChange('');
            if (digits.replace(/^0+/, '').length > SERVICE_MONEY_MAX_DIGITS) return;
            onChange(Number(digits) / 100);
          }}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
