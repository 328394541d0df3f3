import { yupResolver } from '@hookform/resolvers/yup';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Form, FormButtons, FormSection } from '@/components/form/Form';
import { DataTable, type Column } from '@/components/list/ListPage';
import { Modal } from '@/components/Modal';
import { TextField } from '@/components/TextField';
import { notifySuccess } from '@/lib/notify';
import { Icon } from '@/components/Icon';
import { DAY_FIELDS, PERIODS, workingDaySchema, type DayField, type DayForm } from './schemas';
import { useGetWorkingHoursQuery, useSaveWorkingDayMutation } from './staffApi';
import type { StaffTarget, WorkingDay } from './types';
import './staff.css';

/** Weekday names, index = WeekDay (0 Sunday). */
export const WEEK_DAYS = ['Domingo', 'Segunda-feira', 'Terça-feira', 'Quarta-feira', 'Quinta-feira', 'Sexta-feira', 'Sábado'] as const;
const PERIOD_LABELS = { first: 'Primeiro horário', second: 'Segundo horário', third: 'Terceiro horário' } as const;

const ANSWER_KEY: Record<DayField, keyof WorkingDay> = {
  firstStart: 'FirstStart',
  firstEnd: 'FirstEnd',
  secondStart: 'SecondStart',
  secondEnd: 'SecondEnd',
  thirdStart: 'ThirdStart',
  thirdEnd: 'ThirdEnd',
};

const emptyDay = (weekDay: number): WorkingDay => ({
  WeekDay: weekDay,
  FirstStart: null,
  FirstEnd: null,
  SecondStart: null,
  SecondEnd: null,
  ThirdStart: null,
  ThirdEnd: null,
});

/** '09:00 - 12:00', or '-' when the period is empty. */
const periodText = (start: string | null | undefined, end: string | null | undefined) => (start && end ? `${start} - ${end}` : '-');

interface Props {
  target: StaffTarget;
  canEdit: boolean;
}

/** A professional's week: three periods per day, one day edited at a time in a modal. */
export function WorkingHoursEditor({ target, canEdit }: Props) {
  const { data, isLoading } = useGetWorkingHoursQuery(target);
  const [editing, setEditing] = useState<WorkingDay | null>(null);

  // The week always has 7 rows, whatever the answer holds.
  const week = data ? WEEK_DAYS.map((_, day) => data.find((d) => d.WeekDay === day) ?? emptyDay(day)) : undefined;

  const columns: Column<WorkingDay>[] = [
    { header: 'Dia', cell: (day) => WEEK_DAYS[day.WeekDay] },
    { header: 'Primeiro horário', cell: (day) => periodText(day.FirstStart, day.FirstEnd) },
    { header: 'Segundo horário', cell: (day) => periodText(day.SecondStart, day.SecondEnd) },
    { header: 'Terceiro horário', cell: (day) => periodText(day.ThirdStart, day.ThirdEnd) },
  ];
  if (canEdit) {
    columns.push({
      header: 'Ações',
      className: 'table-actions',
      cell: (day) => (
        <button
          type="button"
          className="icon-button"
          aria-label={`Editar ${WEEK_DAYS[day.WeekDay]}`}
          title="Editar"
          onClick={() => setEditing(day)}
        >
          <Icon name="edit" />
        </button>
      ),
    });
  }

  return (
    <section className="staff-editor" aria-label="Horário de trabalho">
      <DataTable
        label="Horário de trabalho"
        columns={columns}
        rows={week}
        rowKey={(day) => day.WeekDay}
        emptyText="Nenhum registro encontrado"
        loading={isLoading}
      />
      {editing && <WorkingDayModal target={target} day={editing} onClose={() => setEditing(null)} />}
    </section>
  );
}

function WorkingDayModal({ target, day, onClose }: { target: StaffTarget; day: WorkingDay; onClose: () => void }) {
  const [saveDay] = useSaveWorkingDayMutation();
  const form = useForm<DayForm>({
    resolver: yupResolver(workingDaySchema),
    defaultValues: Object.fromEntries(DAY_FIELDS.map((f) => [f, day[ANSWER_KEY[f]] ?? ''])) as DayForm,
  });
  const { register, formState, trigger } = form;
  // Every field's message depends on the others: once submitted, re-check them all.
  const field = (name: DayField) =>
    register(name, { onChange: () => formState.isSubmitted && void trigger() });

  const save = async (values: DayForm) => {
    const time = (name: DayField) => values[name].trim() || null;
    await saveDay({
      target,
      body: {
        weekDay: day.WeekDay,
        firstStart: time('firstStart'),
        firstEnd: time('firstEnd'),
        secondStart: time('secondStart'),
        secondEnd: time('secondEnd'),
        thirdStart: time('thirdStart'),
        thirdEnd: time('thirdEnd'),
      },
    }).unwrap();
    notifySuccess('Horário atualizado com sucesso.');
    onClose();
  };

  return (
    <Modal open title={`Horário de ${WEEK_DAYS[day.WeekDay]}`} onClose={onClose} size="small">
      <Form form={form} onSubmit={save} className="staff-day-form">
        {PERIODS.map((period) => (
          <FormSection key={period} title={PERIOD_LABELS[period]}>
            <TextField
              label="Início"
              mask="time"
              autoComplete="off"
              error={formState.errors[`${period}Start`]?.message}
              {...field(`${period}Start`)}
            />
            <TextField
              label="Fim"
              mask="time"
              autoComplete="off"
              error={formState.errors[`${period}End`]?.message}
              {...field(`${period}End`)}
            />
          </FormSection>
        ))}
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
