import { yupResolver } from '@hookform/resolvers/yup';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Form, FormButtons, FormSection } from '@/components/form/Form';
import { DataTable, type Column } from '@/components/list/ListPage';
import { Modal } from '@/components/Modal';
import { TextField } from '@/components/TextField';
import { notifySuccess } from '@/lib/notify';
import { useGetCompanyHoursQuery, useSetCompanyDayMutation } from './companyApi';
import { Icon } from '@/components/Icon';
import { companyDaySchema, type CompanyDayValues } from './schemas';
import type { CompanyDay } from './types';

/** Weekday names, index = WeekDay (0 Sunday). */
export const WEEK_DAYS = ['Domingo', 'Segunda-feira', 'Terça-feira', 'Quarta-feira', 'Quinta-feira', 'Sexta-feira', 'Sábado'] as const;

/** Shown for a day without hours (our text; the spec gives none). */
export const CLOSED = 'Fechado';

const periodText = (day: CompanyDay) => (day.Start && day.End ? `${day.Start} - ${day.End}` : CLOSED);

/** 'Horário de trabalho': the unit's week, one period per day, one day edited at a time. */
export function WorkingHoursTab({ id, canEdit }: { id: number; canEdit: boolean }) {
  const { data, isLoading } = useGetCompanyHoursQuery(id);
  const [editing, setEditing] = useState<CompanyDay | null>(null);
  // Always the 7 days, whatever the answer holds.
  const week = data
    ? WEEK_DAYS.map((_, day) => data.find((d) => d.WeekDay === day) ?? { WeekDay: day, Start: null, End: null })
    : undefined;

  const columns: Column<CompanyDay>[] = [
    { header: 'Dia', cell: (day) => WEEK_DAYS[day.WeekDay] },
    { header: 'Horário', cell: periodText },
    {
      header: 'Ações',
      className: 'table-actions',
      cell: (day) => (
        <button
          type="button"
          className="icon-button"
          aria-label={`Editar ${WEEK_DAYS[day.WeekDay]}`}
          title="Editar"
          disabled={!canEdit}
          onClick={() => setEditing(day)}
        >
          <Icon name="edit" />
        </button>
      ),
    },
  ];

  return (
    <section className="company-hours" aria-label="Horário de trabalho">
      <DataTable
        label="Horário de trabalho"
        columns={columns}
        rows={week}
        rowKey={(day) => day.WeekDay}
        emptyText="Nenhum registro encontrado"
        loading={isLoading}
      />
      {editing && <CompanyDayModal id={id} day={editing} onClose={() => setEditing(null)} />}
    </section>
  );
}

function CompanyDayModal({ id, day, onClose }: { id: number; day: CompanyDay; onClose: () => void }) {
  const [setDay] = useSetCompanyDayMutation();
  const name = WEEK_DAYS[day.WeekDay];
  const form = useForm<CompanyDayValues>({
    resolver: yupResolver(companyDaySchema),
    defaultValues: { start: day.Start ?? '', end: day.End ?? '' },
  });
  const { register, formState, trigger } = form;
  // Each message depends on the other field: once submitted, re-check both.
  const field = (key: keyof CompanyDayValues) =>
    register(key, { onChange: () => formState.isSubmitted && void trigger() });

  const save = async (values: CompanyDayValues) => {
    await setDay({
      id,
      body: { weekDay: day.WeekDay, start: values.start.trim() || null, end: values.end.trim() || null },
    }).unwrap();
    notifySuccess('Horário atualizado com sucesso.');
    onClose();
  };

  return (
    <Modal open title={`Horário de trabalho - ${name}`} onClose={onClose} size="small">
      <Form form={form} onSubmit={save} aria-label={`Horário de ${name}`}>
        <FormSection>
          <TextField label="Início" mask="time" autoComplete="off" error={formState.errors.start?.message} {...field('start')} />
          <TextField label="Fim" mask="time" autoComplete="off" error={formState.errors.end?.message} {...field('end')} />
        </FormSection>
        <p className="muted company-hours-hint">Deixe os dois horários em branco para fechar o dia.</p>
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
