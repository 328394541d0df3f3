import { yupResolver } from '@hookform/resolvers/yup';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Form, FormButtons } from '@/components/form/Form';
import { ReadOnlyField, SelectField } from '@/components/form/fields';
import { Icon } from '@/components/Icon';
import { DataTable, type Column } from '@/components/list/ListPage';
import { Modal } from '@/components/Modal';
import { NumberField } from '@/components/NumberField';
import { formatBRL } from '@/lib/money';
import { notifySuccess } from '@/lib/notify';
import {
  useAddPlanServiceMutation,
  useDeletePlanServiceMutation,
  useGetPlanCatalogueQuery,
  useGetPlanServicesQuery,
  useUpdatePlanServiceMutation,
} from './plansApi';
import { planServiceSchema, planServiceValues, type PlanServiceValues } from './schema';
import type { CatalogueService, PlanService } from './types';

export const SERVICE_ADDED = 'Serviço adicionado com sucesso.';
export const SERVICE_UPDATED = 'Serviço atualizado com sucesso.';

/** The catalogue services a plan may still take: those not in it, plus the one being edited. */
export function offeredServices(catalogue: CatalogueService[], inPlan: PlanService[], editing: PlanService | null) {
  const taken = new Set(inPlan.filter((s) => s.IdService !== editing?.IdService).map((s) => s.IdService));
  const choices = catalogue.filter((s) => !taken.has(s.IdService));
  // An edited service no longer active still shows under its name and its price when added.
  if (editing && !choices.some((s) => s.IdService === editing.IdService))
    choices.unshift({ IdService: editing.IdService, Description: editing.Description, ValueDefault: editing.OriginalValue, TimeDefault: 0 });
  return choices;
}

/** 'Serviços': the plan's discounted services; ADMIN adds, edits and deletes them. */
export function PlanServicesTab({ planId, canEdit }: { planId: number; canEdit: boolean }) {
  const { data, isFetching } = useGetPlanServicesQuery(planId);
  // null: closed; 'new': adding; a row: editing it.
  const [editing, setEditing] = useState<PlanService | 'new' | null>(null);
  const [removing, setRemoving] = useState<PlanService | null>(null);
  const [remove] = useDeletePlanServiceMutation();

  const confirmRemove = async () => {
    const service = removing;
    setRemoving(null);
    if (!service) return;
    // The row leaves the table; a failure is toasted by the base query.
    await remove({ id: service.IdSubscriptionService, planId }).unwrap().catch(() => undefined);
  };

  const columns: Column<PlanService>[] = [
    { header: 'Serviço', cell: (s) => s.Description },
    { header: 'Valor', cell: (s) => <span className="plan-nowrap">{formatBRL(s.OriginalValue)}</span> },
    { header: 'Desconto', cell: (s) => `${s.Discount}%` },
    { header: 'Valor com desconto', cell: (s) => <span className="plan-nowrap">{formatBRL(s.Value)}</span> },
  ];
  if (canEdit) {
    columns.push({
      header: 'Ações',
      className: 'table-actions',
      cell: (s) => (
        <span className="plan-actions">
          <button type="button" className="icon-button" aria-label={`Editar ${s.Description}`} title="Editar" onClick={() => setEditing(s)}>
            <Icon name="edit" />
          </button>
          <button type="button" className="icon-button" aria-label={`Excluir ${s.Description}`} title="Excluir" onClick={() => setRemoving(s)}>
            <Icon name="delete" />
          </button>
        </span>
      ),
    });
  }

  return (
    <section className="plan-services" aria-label="Serviços do plano">
      {canEdit && (
        <div className="plan-toolbar">
          <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
            <Icon name="add" /> Adicionar serviço
          </button>
        </div>
      )}
      <DataTable
        label="Serviços do plano"
        columns={columns}
        rows={data}
        rowKey={(s) => s.IdSubscriptionService}
        emptyText="Nenhum serviço encontrado"
        loading={isFetching}
      />
      {editing && (
        <PlanServiceModal
          planId={planId}
          editing={editing === 'new' ? null : editing}
          inPlan={data ?? []}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={!!removing}
        title="Atencão!"
        confirmLabel="Excluir"
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(null)}
      >
        Deseja realmente excluir o serviço {removing?.Description} do plano?
      </ConfirmDialog>
    </section>
  );
}

interface ModalProps {
  planId: number;
  editing: PlanService | null;
  inPlan: PlanService[];
  onClose: () => void;
}

/** Adds or edits one plan service: the service, its catalogue price (read-only) and the discount. */
function PlanServiceModal({ planId, editing, inPlan, onClose }: ModalProps) {
  const { data: catalogue } = useGetPlanCatalogueQuery();
  const [add] = useAddPlanServiceMutation();
  const [update] = useUpdatePlanServiceMutation();
  const form = useForm<PlanServiceValues>({
    resolver: yupResolver(planServiceSchema) as never,
    defaultValues: planServiceValues(editing),
  });
  const { register, control, watch, formState } = form;
  const choices = offeredServices(catalogue ?? [], inPlan, editing);
  const options = [{ value: 0, label: 'Selecione' }, ...choices.map((s) => ({ value: s.IdService, label: s.Description }))];
  const idService = watch('idService');
  const chosen = choices.find((s) => s.IdService === Number(idService));

  const save = async (values: PlanServiceValues) => {
    const body = { idService: Number(values.idService), idSubscriptionDetail: planId, discount: Number(values.discount) };
    if (editing) {
      await update({ id: editing.IdSubscriptionService, body }).unwrap();
      notifySuccess(SERVICE_UPDATED);
    } else {
      await add(body).unwrap();
      notifySuccess(SERVICE_ADDED);
    }
    onClose();
  };

  return (
    <Modal open title={editing ? 'Editar serviço' : 'Adicionar serviço'} onClose={onClose} size="small">
      <Form form={form} onSubmit={save} aria-label="Serviço do plano" className="plan-service-form">
        <div className="form-grid">
          <SelectField
            label="Serviço"
            className="field-wide"
            options={options}
            error={formState.errors.idService?.message}
            {...register('idService', { valueAsNumber: true })}
          />
          <ReadOnlyField label="Valor" value={chosen ? formatBRL(chosen.ValueDefault) : ''} />
          <Controller
            control={control}
            name="discount"
            render={({ field, fieldState }) => (
              <NumberField
                label="Desconto (%)"
                value={field.value}
                onChange={field.onChange}
                minValue={0}
                maxValue={100}
                maxLength={3}
                error={fieldState.error?.message}
              />
            )}
          />
        </div>
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
