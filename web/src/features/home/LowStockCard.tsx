import { useId } from 'react';
import { Link } from 'react-router';
import { useAppDispatch } from '@/state/hooks';
import { companySelected } from '@/state/sessionSlice';
import type { LowStockItem } from './homeApi';
import { lowStockText, STOCK_PATH } from './shaping';

/**
 * 'Produtos abaixo do mínimo' (issue 43): each product below its minimum in a unit, linking to
 * that unit's stock; nothing when none is (or the role does not see the stock).
 */
export function LowStockCard({ items }: { items: LowStockItem[] | null | undefined }) {
  const dispatch = useAppDispatch();
  const titleId = useId();
  if (!items?.length) return null;
  return (
    <section className="home-card home-low-stock" aria-labelledby={titleId} data-testid="home-low-stock">
      <h2 id={titleId} className="home-card-title">
        Produtos abaixo do mínimo
      </h2>
      <ul className="home-low-stock-list" aria-labelledby={titleId}>
        {items.map((item) => (
          <li key={`${item.IdCompany}-${item.IdProduct}`} className="home-low-stock-item">
            {/* The stock page shows the shell's unit: this one. */}
            <Link to={STOCK_PATH} onClick={() => dispatch(companySelected(item.IdCompany))}>
              {item.Name}
            </Link>
            <span className="home-low-stock-unit">{item.CompanyName}</span>
            <span className="home-low-stock-quantity">{lowStockText(item)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
