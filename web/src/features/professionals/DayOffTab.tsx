import { yupResolver } from '@hookform/resolvers/yup';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Icon } from '@/components/Icon';
import { Modal } from '@/components/Modal';
import { TextField } from '@/components/TextField';
import { Form, FormButtons } from '@/components/form/Form';
import { DataTable, LIST_PAGE_SIZE, type Column } from '@/components/list/ListPage';
import { Paginator } from '@/components/Paginator';
import { formatDateBR } from '@/lib/dates';
import { notifySuccess } from '@/lib/notify';
import { useIdempotencyKey } from '@/lib/idempotency';
import {
  useCreateDayOffMutation,
  useDeleteDayOffMutation,
  useGetDaysOffQuery,
  useUpdateDayOffMutation,
} from './professionalsApi';
import { dayOffSchema, emptyDayOff, type DayOffValues } from './schemas';
import type { DayOffItem, DayOffPayload } from './types';

/** 'Dia inteiro' or '09:00 - 12:00'. */
export const windowText = (item: DayOffItem) =>
  item.AllDay || !item.StartTime || !item.EndTime ? 'Dia inteiro' : `${item.StartTime} - ${item.EndTime}`;

export const dayOffPayloadOf = (values: DayOffValues, idProfessional: number): DayOffPayload => ({
  description: values.description.trim(),
  dateStart: values.dateStart,
  dateEnd: values.dateEnd,
  allDay: values.allDay,
  // Spec 02 §4: an all-day entry sends its times as null.
  startTime: values.allDay ? null : values.startTime,
  endTime: values.allDay ? null : values.endTime,
  idProfessional,
});

const valuesOfItem = (item: DayOffItem): DayOffValues => ({
  description: item.Description,
  dateStart: item.DateStart.slice(0, 10),
  dateEnd: item.DateEnd.slice(0, 10),
  allDay: item.AllDay,
  startTime: item.StartTime ?? '',
  endTime: item.EndTime ?? '',
});

interface DayOffTabProps {
  idProfessional: number;
  canEdit: boolean;
}

/** The 'Folga/Férias' tab: the professional's days off and vacations, 5 a page. */
export function DayOffTab({ idProfessional, canEdit }: DayOffTabProps) {
  const [page, setPage] = useState(1);
  const { data, isFetching } = useGetDaysOffQuery({ idProfessional, page, pageSize: LIST_PAGE_SIZE });
  // null: closed; 'new': registering; an item: editing it.
  const [editing, setEditing] = useState<DayOffItem | 'new' | null>(null);
  const [removing, setRemoving] = useState<DayOffItem | null>(null);
  const [remove] = useDeleteDayOffMutation();

  const confirmRemove = async () => {
    const item = removing;
    setRemoving(null);
    if (!item) return;
    try {
      await remove({ id: item.IdDayOff, idProfessional }).unwrap();
      notifySuccess('Folga/férias excluída com sucesso!');
      // The last entry of a page: show the page before.
      if (data && data.content.length === 1 && page > 1) setPage(page - 1);
    } catch {
      // Toasted by the base query.
    }
  };

  const columns: Column<DayOffItem>[] = [
    { header: 'Descrição', cell: (row) => row.Description },
    { header: 'Início', cell: (row) => formatDateBR(row.DateStart.slice(0, 10)) },
    { header: 'Fim', cell: (row) => formatDateBR(row.DateEnd.slice(0, 10)) },
    { header: 'Horário', cell: windowText },
  ];
  if (canEdit) {
    columns.push({
      header: 'Ações',
      className: 'table-actions',
      cell: (row) => (
        <>
          <button type="button" className="icon-button" aria-label={`Editar ${row.Description}`} title="Editar" onClick={() => setEditing(row)}>
            <Icon name="edit" />
          </button>
          <button type="button" className="icon-button" aria-label={`Excluir ${row.Description}`} title="Excluir" onClick={() => setRemoving(row)}>
            <Icon name="delete" />
          </button>
        </>
      ),
    });
  }

  return (
    <div className="day-off-tab">
      {canEdit && (
        <div className="tab-toolbar">
          <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
            <Icon name="add" /> Nova folga/férias
          </button>
        </div>
      )}
      <DataTable
        label="Folgas e férias"
        columns={columns}
        rows={data?.content}
        rowKey={(row) => row.IdDayOff}
        emptyText="Nenhum registro encontrado"
        loading={isFetching}
      />
      {!!data?.total && <Paginator page={page} pageSize={LIST_PAGE_SIZE} total={data.total} onPage={setPage} />}
      {editing && (
        <DayOffModal
          idProfessional={idProfessional}
          item={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onCreated={() => setPage(1)}
        />
      )}
      <ConfirmDialog
        open={!!removing}
        title="Atencão!"
        confirmLabel="Excluir"
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(null)}
      >
        Deseja realmente excluir a folga/férias?
      </ConfirmDialog>
    </div>
  );
}

interface DayOffModalProps {
  idProfessional: number;
  item?: DayOffItem;
  /** A new entry's first values (the agenda's 'Bloquear horário': the day, a time window). */
  initial?: Partial<DayOffValues>;
  /** The title of a new entry's dialog. */
  title?: string;
  onClose: () => void;
  onCreated: () => void;
}

/** Registers or edits one day off: description, dates, and all-day or a time window. */
export function DayOffModal({ idProfessional, item, initial, title, onClose, onCreated }: DayOffModalProps) {
  const schema = useMemo(() => dayOffSchema(), []);
  const form = useForm<DayOffValues>({
    resolver: yupResolver(schema),
    defaultValues: item ? valuesOfItem(item) : { ...emptyDayOff, ...initial },
  });
  const { register, formState, watch, setValue } = form;
  const errors = formState.errors;
  const allDay = watch('allDay');
  const [create] = useCreateDayOffMutation();
  const [update] = useUpdateDayOffMutation();
  // A retried request is not a second day off.
  const withKey = useIdempotencyKey();

  const submit = async (values: DayOffValues) => {
    const body = dayOffPayloadOf(values, idProfessional);
    if (item) {
      await update({ id: item.IdDayOff, body }).unwrap();
      notifySuccess('Folga/férias atualizada com sucesso.');
    } else {
      await withKey((idempotencyKey) => create({ body, idempotencyKey }).unwrap());
      notifySuccess('Folga/férias cadastrada com sucesso.');
      // Newest first: the new entry is on the first page.
      onCreated();
    }
    onClose();
  };

  return (
    <Modal
      open
      title={item ? 'Editar folga/férias' : (title ?? 'Nova folga/férias')}
      onClose={onClose}
      size="small"
    >
      <Form form={form} onSubmit={submit} aria-label="Folga/férias" className="day-off-form">
        <div className="form-grid">
          <TextField label="Descrição" className="field-wide" maxLength={150} error={errors.description?.message} {...register('description')} />
          <TextField label="Data de início" type="date" error={errors.dateStart?.message} {...register('dateStart')} />
          <TextField label="Data de fim" type="date" error={errors.dateEnd?.message} {...register('dateEnd')} />
          <fieldset className="radio-group field-wide">
            <legend className="visually-hidden">Período</legend>
            <label>
              <input
                type="radio"
                name="day-off-window"
                checked={allDay}
                onChange={() => setValue('allDay', true, { shouldValidate: formState.isSubmitted })}
              />
              Dia inteiro
            </label>
            <label>
              <input
                type="radio"
                name="day-off-window"
                checked={!allDay}
                onChange={() => setValue('allDay', false, { shouldValidate: formState.isSubmitted })}
              />
              Horário específico
            </label>
          </fieldset>
          {!allDay && (
            <>
              <TextField label="Horário inicial" mask="time" error={errors.startTime?.message} {...register('startTime')} />
              <TextField label="Horário final" mask="time" error={errors.endTime?.message} {...register('endTime')} />
            </>
          )}
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
