import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useAppSelector } from '@/state/hooks';
import { Icon } from '@/components/Icon';
import { NotFound } from '@/components/NotFound';
import { Tabs } from '@/components/Tabs';
import { ProfessionalServicesEditor, WorkingHoursEditor } from '@/components/staff';
import { HistoryList } from '@/features/history/HistoryList';
import { selectRoleType } from '@/state/sessionSlice';
import { CommissionTab } from './CommissionTab';
import { DayOffTab } from './DayOffTab';
import { LIST_PATH, ProfessionalInfoForm } from './ProfessionalInfoForm';
import { useGetProfessionalQuery } from './professionalsApi';
import './professionals.css';

type TabKey = 'info' | 'hours' | 'services' | 'dayOff' | 'commission' | 'history';

/** 'new' and 'form' both open an empty form (spec 02 §2); a number opens that professional. */
export function idOfParam(param: string | undefined): number | 'new' | null {
  if (!param || param === 'new' || param === 'form') return 'new';
  return /^\d+$/.test(param) && Number(param) > 0 ? Number(param) : null;
}

/**
 * Professional detail: Informações, and once the professional exists their hours, services,
 * days off and commission rates.
 */
export default function ProfessionalFormPage() {
  const id = idOfParam(useParams().idProfessional);
  const idProfessional = typeof id === 'number' ? id : undefined;
  const canEdit = useAppSelector(selectRoleType) === 'ADMIN';
  const [tab, setTab] = useState<TabKey>('info');
  const { data: detail, isLoading, isError } = useGetProfessionalQuery(idProfessional ?? 0, { skip: !idProfessional });

  if (id === null) return <NotFound homePath={LIST_PATH} />;
  const exists = !!idProfessional;
  const target = { kind: 'professional' as const, idProfessional: idProfessional ?? 0 };

  return (
    <section className="page professional-page">
      <header className="page-header">
        <Link to={LIST_PATH} className="icon-button" aria-label="Voltar" title="Voltar">
          <Icon name="arrowBack" />
        </Link>
        <div className="professional-heading">
          <h1 className="page-title">{exists ? 'Profissional' : 'Novo profissional'}</h1>
          {detail && <p className="muted">{detail.Name}</p>}
        </div>
      </header>
      <Tabs
        label="Profissional"
        current={tab}
        onChange={setTab}
        tabs={[
          { key: 'info', label: 'Informações' },
          { key: 'hours', label: 'Horário de trabalho', hidden: !exists },
          { key: 'services', label: 'Serviços', hidden: !exists },
          { key: 'dayOff', label: 'Folga/Férias', hidden: !exists },
          // Issue 42: ADMIN sets the rates; whoever reads the professional reads them.
          { key: 'commission', label: 'Comissões', hidden: !exists },
          // The audit is ADMIN's, like editing.
          { key: 'history', label: 'Histórico', hidden: !exists || !canEdit },
        ]}
      >
        {tab === 'info' &&
          (!exists ? (
            <ProfessionalInfoForm canEdit={canEdit} />
          ) : detail ? (
            <ProfessionalInfoForm key={detail.IdProfessional} detail={detail} canEdit={canEdit} />
          ) : (
            <p className="empty">{isLoading ? 'Carregando...' : isError ? 'Profissional não encontrado.' : ''}</p>
          ))}
        {exists && tab === 'hours' && <WorkingHoursEditor target={target} canEdit={canEdit} />}
        {exists && tab === 'services' && <ProfessionalServicesEditor target={target} canEdit={canEdit} />}
        {exists && tab === 'dayOff' && <DayOffTab idProfessional={idProfessional} canEdit={canEdit} />}
        {exists && tab === 'commission' && <CommissionTab idProfessional={idProfessional} canEdit={canEdit} />}
        {exists && canEdit && tab === 'history' && (
          <HistoryList target={{ subject: 'professional', id: idProfessional }} label="Histórico do profissional" />
        )}
      </Tabs>
    </section>
  );
}
