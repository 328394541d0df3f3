import { formatBRL } from '@/lib/money';
import type { UnitService } from '../model/types';

interface ServicePickerProps {
  services: UnitService[] | undefined;
  chosen: number[];
  onToggle: (id: number) => void;
}

/** Totals of the chosen services. */
export function servicesTotal(services: UnitService[], chosen: number[]) {
  const picked = services.filter((service) => chosen.includes(service.IdService));
  return {
    value: picked.reduce((sum, service) => sum + service.MaxValue, 0),
    minutes: picked.reduce((sum, service) => sum + service.MaxTime, 0),
  };
}

/** Service checkboxes with price and minutes, and the running total. */
export function ServicePicker({ services, chosen, onToggle }: ServicePickerProps) {
  if (!services) return <p className="muted">Carregando...</p>;
  if (services.length === 0) return <p className="empty">Nenhum serviço encontrado...</p>;
  const total = servicesTotal(services, chosen);
  return (
    <div className="service-picker">
      <fieldset className="service-list">
        <legend>Serviços</legend>
        {services.map((service) => (
          <label key={service.IdService} className="service-option">
            <input
              type="checkbox"
              checked={chosen.includes(service.IdService)}
              onChange={() => onToggle(service.IdService)}
            />
            <span className="service-name">{service.Description}</span>
            <span className="service-price">{formatBRL(service.MaxValue)}</span>
            <span className="service-minutes">{service.MaxTime} min</span>
          </label>
        ))}
      </fieldset>
      <p className="service-total" aria-live="polite">
        Total: <strong>{formatBRL(total.value)}</strong> · {total.minutes} min
      </p>
    </div>
  );
}
