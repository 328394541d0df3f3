import { yupResolver } from '@hookform/resolvers/yup';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { useMemberCompanies } from '@/api/companiesApi';
import { useAppSelector } from '@/state/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Form, FormButtons, FormSection } from '@/components/form/Form';
import { FormPageFrame, FormPagePending } from '@/components/form/FormPageFrame';
import { CheckboxField } from '@/components/form/fields';
import { TextField } from '@/components/TextField';
import { notifySuccess } from '@/lib/notify';
import { selectRoleType } from '@/state/sessionSlice';
import {
  useCreateHolidayMutation,
  useDeleteHolidayMutation,
  useGetHolidayQuery,
  useUpdateHolidayMutation,
} from './holidaysApi';
import { MultiSelect } from '@/components/form/MultiSelect';
import { EMPTY_HOLIDAY, holidayPayload, holidaySchema, holidayValues, mayEditHolidays, type HolidayFormValues } from './schema';
import type { Holiday } from './types';
import './holidays.css';

const HOLIDAYS_PATH = '/dashboard/holiday';
const FRAME = { listPath: HOLIDAYS_PATH, className: 'holiday-form-page' };

export const CREATED_MESSAGE = 'Feriado cadastrado com sucesso!';
/** Spec 02 §8 lists both; the bare one is the holiday's (see the final report / docs). */
export const UPDATED_MESSAGE = 'atualizado com sucesso.';
export const DELETED_MESSAGE = 'Feriado excluído com sucesso!';

/** /dashboard/holiday/new and /dashboard/holiday/{idHoliday}. */
export default function HolidayFormPage() {
  const { idHoliday = 'new' } = useParams();
  const id = /^\d+$/.test(idHoliday) ? Number(idHoliday) : null;
  const { data: holiday, isError } = useGetHolidayQuery(id ?? 0, { skip: id === null });

  if (id !== null && !holiday) {
    return <FormPagePending {...FRAME} title="Feriado" isError={isError} />;
  }
  return <HolidayForm key={id ?? 'new'} holiday={holiday ?? null} />;
}

function HolidayForm({ holiday }: { holiday: Holiday | null }) {
  const navigate = useNavigate();
  const canEdit = mayEditHolidays(useAppSelector(selectRoleType));
  const companies = useMemberCompanies();
  const form = useForm<HolidayFormValues>({
    resolver: yupResolver(holidaySchema),
    defaultValues: holiday ? holidayValues(holiday) : EMPTY_HOLIDAY,
  });
  const {
    register,
    control,
    watch,
    setValue,
    formState: { errors, isSubmitting },
  } = form;
  const [createHoliday] = useCreateHolidayMutation();
  const [updateHoliday] = useUpdateHolidayMutation();
  const [deleteHoliday, { isLoading: deleting }] = useDeleteHolidayMutation();
  const [confirmOpen, setConfirmOpen] = useState(false);
  const allCompanies = watch('allCompanies');
  const allDay = watch('allDay') === 'true';

  // The units the user may see; a holiday's unit the list lacks still shows by its name.
  const options = [
    ...(companies ?? []).map((company) => ({
      value: company.IdCompany,
      label: company.Name,
      detail: company.City ? `${company.City} - ${company.State}` : undefined,
    })),
    ...(holiday?.Companies ?? [])
      .filter((company) => !(companies ?? []).some((c) => c.IdCompany === company.IdCompany))
      .map((company) => ({ value: company.IdCompany, label: company.Name })),
  ];

  const save = async (values: HolidayFormValues) => {
    const payload = holidayPayload(values);
    if (holiday) {
      await updateHoliday({ id: holiday.IdHoliday, payload }).unwrap();
      notifySuccess(UPDATED_MESSAGE);
    } else {
      await createHoliday(payload).unwrap();
      notifySuccess(CREATED_MESSAGE);
    }
    navigate(HOLIDAYS_PATH);
  };

  const remove = async () => {
    if (!holiday) return;
    try {
      await deleteHoliday(holiday.IdHoliday).unwrap();
      notifySuccess(DELETED_MESSAGE);
      navigate(HOLIDAYS_PATH);
    } catch {
      // The base query showed the server's message.
      setConfirmOpen(false);
    }
  };

  return (
    <FormPageFrame {...FRAME} title={holiday ? 'Feriado' : 'Novo feriado'}>
      <Form form={form} onSubmit={save} aria-label="Dados do feriado">
        {/* Only ADMIN may change holidays; the others read them (spec 02 §6). */}
        <fieldset className="holiday-fields" disabled={!canEdit}>
          <FormSection title="Feriado">
            <TextField
              label="Descrição"
              className="field-wide"
              autoComplete="off"
              maxLength={150}
              error={errors.description?.message}
              {...register('description')}
            />
            <TextField label="Início" type="date" max="9999-12-31" error={errors.startDate?.message} {...register('startDate')} />
            <TextField label="Fim" type="date" max="9999-12-31" error={errors.endDate?.message} {...register('endDate')} />
          </FormSection>
          <FormSection title="Empresas">
            <CheckboxField
              label="Todas as empresas"
              className="field-wide"
              {...register('allCompanies', {
                // Every unit clears the chosen ones (as on the plan form).
                onChange: (event) => {
                  if (event.target.checked) setValue('idsCompanies', [], { shouldValidate: form.formState.isSubmitted });
                },
              })}
            />
            {!allCompanies && (
              <div className="field-wide">
                <Controller
                  control={control}
                  name="idsCompanies"
                  render={({ field, fieldState }) => (
                    <MultiSelect
                      label="Empresas"
                      options={options}
                      value={field.value}
                      onChange={field.onChange}
                      disabled={!canEdit}
                      error={fieldState.error?.message}
                    />
                  )}
                />
              </div>
            )}
          </FormSection>
          <FormSection title="Horário">
            <fieldset className="radio-group holiday-period">
              <legend className="visually-hidden">Período</legend>
              <label>
                <input type="radio" value="true" {...register('allDay')} />
                Dia inteiro
              </label>
              <label>
                <input type="radio" value="false" {...register('allDay')} />
                Horário específico
              </label>
            </fieldset>
            {!allDay && (
              <>
                <TextField label="Horário inicial" mask="time" error={errors.startTime?.message} {...register('startTime')} />
                <TextField label="Horário final" mask="time" error={errors.endTime?.message} {...register('endTime')} />
              </>
            )}
          </FormSection>
        </fieldset>
        {canEdit && (
          <FormButtons>
            {holiday && (
              <button type="button" className="button button-danger" onClick={() => setConfirmOpen(true)}>
                Excluir
              </button>
            )}
            <button type="submit" className="button button-primary" disabled={isSubmitting}>
              Salvar
            </button>
          </FormButtons>
        )}
      </Form>
      <ConfirmDialog
        open={confirmOpen}
        title="Atencão!"
        confirmLabel="Excluir"
        cancelLabel="Fechar"
        onConfirm={() => void (deleting || remove())}
        onCancel={() => setConfirmOpen(false)}
      >
        <p>Deseja realmente excluir o feriado?</p>
      </ConfirmDialog>
    </FormPageFrame>
  );
}
