import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useAppSelector } from '@/state/hooks';
import { Icon } from '@/components/Icon';
import { NotFound } from '@/components/NotFound';
import { Tabs } from '@/components/Tabs';
import { selectRoleType } from '@/state/sessionSlice';
import { PlanBasicForm } from './PlanBasicForm';
import { PLANS_PATH } from './paths';
import { PlanServicesTab } from './PlanServicesTab';
import { useGetPlanQuery } from './plansApi';
import { mayEditPlans } from './schema';
import './plans.css';

type TabKey = 'basic' | 'services';

/** 'new' opens an empty form; a positive number opens that plan; anything else is not found. */
export function planIdOfParam(param: string | undefined): number | 'new' | null {
  if (!param || param === 'new') return 'new';
  return /^\d+$/.test(param) && Number(param) > 0 ? Number(param) : null;
}

/** /dashboard/subscription-detail-form/{id or new}: 'Dados básicos' and, once the plan exists, 'Serviços'. */
export default function PlanFormPage() {
  const id = planIdOfParam(useParams().subscriptionDetailId);
  const planId = typeof id === 'number' ? id : null;
  const canEdit = mayEditPlans(useAppSelector(selectRoleType));
  const [tab, setTab] = useState<TabKey>('basic');
  const { data: plan, isLoading, isError } = useGetPlanQuery(planId ?? 0, { skip: planId === null });

  if (id === null) return <NotFound homePath={PLANS_PATH} />;
  const current = planId === null ? 'basic' : tab;

  return (
    <section className="page plan-page">
      <header className="page-header">
        <Link to={PLANS_PATH} className="icon-button" aria-label="Voltar" title="Voltar">
          <Icon name="arrowBack" />
        </Link>
        <div className="plan-heading">
          <h1 className="page-title">{planId === null ? 'Novo plano' : 'Plano de assinatura'}</h1>
          {plan && <p className="muted">{plan.PlanName}</p>}
        </div>
      </header>
      <Tabs
        label="Plano de assinatura"
        current={current}
        onChange={setTab}
        tabs={[
          { key: 'basic', label: 'Dados básicos' },
          { key: 'services', label: 'Serviços', hidden: planId === null },
        ]}
      >
        {current === 'basic' &&
          (planId === null ? (
            <PlanBasicForm key="new" plan={null} canEdit={canEdit} />
          ) : plan ? (
            <PlanBasicForm key={plan.IdSubscriptionDetail} plan={plan} canEdit={canEdit} />
          ) : (
            <p className="empty">{isLoading ? 'Carregando...' : isError ? 'Nenhum registro encontrado' : ''}</p>
          ))}
        {current === 'services' && planId !== null && <PlanServicesTab planId={planId} canEdit={canEdit} />}
      </Tabs>
    </section>
  );
}
