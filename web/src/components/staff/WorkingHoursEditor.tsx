import { yupResolver } from '@hookform/resolvers/yup';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Form, FormButtons, FormSection } from '@/components/form/Form';
import { DataTable, type Column } from '@/components/list/ListPage';
import { Modal } from '@/components/Modal';
import { TextField } from '@/components/TextField';
import { notifySuccess } from '@/lib/notify';
import { Icon } from '@/components/Icon';
import { DAY_FIELDS, PERIODS, workingDaySchema, type DayField, type DayForm } from './schemas';
import { useGetWorkingHoursQuery, useSaveWorkingDayMutation } from './staffApi';
import type { StaffTarget, WorkingDay, WorkingDayBody } from './types';
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

/**
 * The days a day's hours are copied to: Monday to Saturday but the day itself. Sunday keeps
 * its own hours (most shops close) unless it is the day copied from.
 */
export function copyTargets(weekDay: number): number[] {
  return [1, 2, 3, 4, 5, 6].filter((day) => day !== weekDay);
}

/** 'A, B e C'. */
const listed = (names: readonly string[]) =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} e ${names[names.length - 1]}` : (names[0] ?? '');

/** The PUT .../day body of a weekday from the form's values ('' is an empty time). */
const bodyOf = (values: DayForm, weekDay: number): WorkingDayBody => {
  const time = (name: DayField) => values[name].trim() || null;
  return {
    weekDay,
    firstStart: time('firstStart'),
    firstEnd: time('firstEnd'),
    secondStart: time('secondStart'),
    secondEnd: time('secondEnd'),
    thirdStart: time('thirdStart'),
    thirdEnd: time('thirdEnd'),
  };
};

function WorkingDayModal({ target, day, onClose }: { target: StaffTarget; day: WorkingDay; onClose: () => void }) {
  const [saveDay] = useSaveWorkingDayMutation();
  const form = useForm<DayForm>({
    resolver: yupResolver(workingDaySchema),
    defaultValues: Object.fromEntries(DAY_FIELDS.map((f) => [f, day[ANSWER_KEY[f]] ?? ''])) as DayForm,
  });
  const { register, formState, trigger, watch } = form;
  // The validated values waiting for the copy's confirmation.
  const [toCopy, setToCopy] = useState<DayForm | null>(null);
  // How far the copy went: the day being sent (1-based) of how many.
  const [progress, setProgress] = useState<{ current: number; total: number } | null>(null);
  const copying = progress !== null;
  // Read while rendering, so react-hook-form keeps it current.
  const edited = formState.isDirty;
  // Every field's message depends on the others: once submitted, re-check them all.
  const field = (name: DayField) =>
    register(name, { onChange: () => formState.isSubmitted && void trigger() });
  // A day without hours is not copied: it would clear the whole week.
  const hasHours = watch(DAY_FIELDS).some((value) => !!value?.trim());
  const targets = copyTargets(day.WeekDay);
  const dayName = WEEK_DAYS[day.WeekDay];

  const save = async (values: DayForm) => {
    await saveDay({ target, body: bodyOf(values, day.WeekDay) }).unwrap();
    notifySuccess('Horário atualizado com sucesso.');
    onClose();
  };

  // One day at a time, the same body each time: a refusal stops the copy where it is (the
  // base query toasts it) and the week shows what was copied.
  const copy = async () => {
    const values = toCopy;
    setToCopy(null);
    if (!values) return;
    try {
      // What the dialog shows is what is copied, so an edited day is saved first.
      if (edited) await saveDay({ target, body: bodyOf(values, day.WeekDay) }).unwrap();
      for (const [index, weekDay] of targets.entries()) {
        setProgress({ current: index + 1, total: targets.length });
        await saveDay({ target, body: bodyOf(values, weekDay) }).unwrap();
      }
    } catch {
      setProgress(null);
      return;
    }
    notifySuccess('Horário copiado para os outros dias.');
    onClose();
  };

  return (
    <>
      <Modal open title={`Horário de ${dayName}`} onClose={copying ? () => undefined : onClose} size="small">
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
          <div className="staff-day-copy">
            <button
              type="button"
              className="button button-secondary"
              disabled={!hasHours || copying || formState.isSubmitting}
              onClick={form.handleSubmit((values) => setToCopy(values))}
            >
              Copiar para os outros dias
            </button>
            <p role="status" className="muted">
              {progress ? `Copiando ${progress.current} de ${progress.total}…` : ''}
            </p>
          </div>
          <FormButtons>
            <button type="button" className="button button-secondary" onClick={onClose} disabled={copying}>
              Cancelar
            </button>
            <button type="submit" className="button button-primary" disabled={formState.isSubmitting || copying}>
              Salvar
            </button>
          </FormButtons>
        </Form>
      </Modal>
      <ConfirmDialog
        open={toCopy !== null}
        title="Copiar horário"
        confirmLabel="Copiar"
        onConfirm={() => void copy()}
        onCancel={() => setToCopy(null)}
      >
        <p>Copiar o horário de {dayName} para os outros dias de trabalho?</p>
        <p>Os horários de {listed(targets.map((weekDay) => WEEK_DAYS[weekDay]))} serão substituídos.</p>
      </ConfirmDialog>
    </>
  );
}
