import { yupResolver } from '@hookform/resolvers/yup';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import * as yup from 'yup';
import { useMemberCompanies } from '@/api/companiesApi';
import { Form, FormButtons } from '@/components/form/Form';
import { SelectField } from '@/components/form/fields';
import { Modal } from '@/components/Modal';
import { ClientSearch } from '@/features/agenda/components/ClientSearch';
import { useIdempotencyKey } from '@/lib/idempotency';
import { notifySuccess } from '@/lib/notify';
import { useAppSelector } from '@/state/hooks';
import { selectSelectedCompany } from '@/state/sessionSlice';
import { useOpenComandaMutation } from './comandasApi';
import { comandaPath } from './model';

export const COMANDA_OPENED = 'Comanda aberta.';
export const WALK_IN = 'Cliente avulso';

interface NewComandaValues {
  idCompany: number;
}

const newComandaSchema = yup.object({
  idCompany: yup.number().required().moreThan(0, 'Escolha a unidade.'),
}) as yup.ObjectSchema<NewComandaValues>;

/** 'Nova comanda': a walk-in at a unit, with a client or as 'Cliente avulso'. */
export function NewComandaModal({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const companies = useMemberCompanies();
  const selected = useAppSelector(selectSelectedCompany);
  const [openComanda] = useOpenComandaMutation();
  const withKey = useIdempotencyKey();
  // null: 'Cliente avulso'.
  const [client, setClient] = useState<{ id: number; name: string } | null>(null);
  const [searching, setSearching] = useState(false);
  const form = useForm<NewComandaValues>({
    resolver: yupResolver(newComandaSchema),
    defaultValues: { idCompany: selected?.IdCompany ?? 0 },
  });
  const options = [{ value: 0, label: 'Selecione' }, ...(companies ?? []).map((c) => ({ value: c.IdCompany, label: c.Name }))];

  const save = async (values: NewComandaValues) => {
    const payload = { idCompany: values.idCompany, idUser: client?.id ?? null };
    const { IdComanda } = await withKey(
      (idempotencyKey) => openComanda({ payload, idempotencyKey }).unwrap(),
      JSON.stringify(payload),
    );
    notifySuccess(COMANDA_OPENED);
    navigate(comandaPath(IdComanda));
  };

  if (searching) {
    return (
      <Modal open title="Escolher cliente" onClose={() => setSearching(false)}>
        <ClientSearch
          selected={client?.id ?? null}
          onSelect={(chosen) => {
            setClient({ id: chosen.IdUser, name: chosen.Name });
            setSearching(false);
          }}
        />
      </Modal>
    );
  }

  return (
    <Modal open title="Nova comanda" onClose={onClose} size="small">
      <Form form={form} onSubmit={save} aria-label="Nova comanda" className="comanda-form">
        <SelectField
          label="Unidade"
          options={options}
          error={form.formState.errors.idCompany?.message}
          {...form.register('idCompany', { valueAsNumber: true })}
        />
        <div className="comanda-client-choice">
          <p>
            Cliente: <strong>{client?.name ?? WALK_IN}</strong>
          </p>
          <div className="comanda-buttons">
            <button type="button" className="button button-secondary" onClick={() => setSearching(true)}>
              Escolher cliente
            </button>
            {client && (
              <button type="button" className="button button-secondary" onClick={() => setClient(null)}>
                {WALK_IN}
              </button>
            )}
          </div>
        </div>
        <FormButtons>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Voltar
          </button>
          <button type="submit" className="button button-primary" disabled={form.formState.isSubmitting}>
            Abrir comanda
          </button>
        </FormButtons>
      </Form>
    </Modal>
  );
}
