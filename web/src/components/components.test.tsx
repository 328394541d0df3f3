import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DatePicker } from './DatePicker';
import { MoneyField } from './MoneyField';
import { NumberField, acceptsNumber } from './NumberField';
import { Paginator } from './Paginator';
import { SearchableSelect, matchesOption } from './SearchableSelect';
import { TextField } from './TextField';
import { Tooltip } from './Tooltip';

const branches = [
  { value: 1, label: 'Navalha Centro', detail: 'São Paulo - SP' },
  { value: 2, label: 'Navalha Savassi', detail: 'Belo Horizonte - MG' },
  { value: 3, label: 'Navalha Batel', detail: 'Curitiba - PR' },
];

describe('searchable dropdown', () => {
  it('filters by name or city-state, ignoring case and accents', () => {
    expect(matchesOption(branches[0], 'CENTRO')).toBe(true);
    expect(matchesOption(branches[0], 'sao paulo')).toBe(true);
    expect(matchesOption(branches[1], '- mg')).toBe(true);
    expect(matchesOption(branches[2], 'centro')).toBe(false);
  });

  it('opens, filters as the user types and chooses with the mouse or the keyboard', async () => {
    const user = userEvent.setup();
    function Harness() {
      const [value, setValue] = useState<number | null>(1);
      return <SearchableSelect label="Filial" options={branches} value={value} onChange={setValue} />;
    }
    render(<Harness />);
    const box = screen.getByRole('combobox', { name: 'Filial' });
    expect((box as HTMLInputElement).value).toBe('Navalha Centro');

    await user.click(box);
    expect(screen.getAllByRole('option')).toHaveLength(3);
    await user.type(box, 'curi');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Navalha Batel Curitiba - PR']);
    await user.click(screen.getByRole('option', { name: /Batel/ }));
    expect((box as HTMLInputElement).value).toBe('Navalha Batel');
    expect(screen.queryByRole('listbox')).toBeNull();

    await user.click(box);
    await user.type(box, 'xyz');
    expect(screen.getByText('Nenhum resultado encontrado')).toBeTruthy();
    await user.clear(box);
    await user.keyboard('{ArrowDown}{Enter}');
    expect((box as HTMLInputElement).value).toBe('Navalha Savassi');
  });
});

describe('paginator', () => {
  it('shows the range, the page window and moves between pages', async () => {
    const user = userEvent.setup();
    const onPage = vi.fn();
    render(<Paginator page={6} pageSize={5} total={100} onPage={onPage} />);
    const nav = screen.getByRole('navigation', { name: 'Paginação' });
    expect(within(nav).getByText('Mostrando 26 à 30 de 100 resultados')).toBeTruthy();
    const pages = within(nav)
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(pages).toEqual(['Anterior', '1', '2', '4', '5', '6', '7', '8', '19', '20', 'Próximo']);
    expect(within(nav).getAllByText('…')).toHaveLength(2);
    expect(within(nav).getByRole('button', { name: 'Página 6' }).getAttribute('aria-current')).toBe('page');
    await user.click(within(nav).getByRole('button', { name: 'Próxima página' }));
    await user.click(within(nav).getByRole('button', { name: 'Página 20' }));
    expect(onPage.mock.calls).toEqual([[7], [20]]);
  });

  it('disables Anterior on the first page and Próximo on the last', () => {
    render(<Paginator page={1} pageSize={5} total={3} onPage={() => {}} />);
    expect(screen.getByRole('button', { name: 'Página anterior' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Próxima página' }).hasAttribute('disabled')).toBe(true);
  });
});

describe('inputs', () => {
  it('masks CPF, phone, CEP, CNPJ and time while typing', async () => {
    const user = userEvent.setup();
    render(
      <>
        <TextField label="CPF" mask="cpf" />
        <TextField label="Celular" mask="phone" />
        <TextField label="CEP" mask="cep" />
        <TextField label="CNPJ" mask="cnpj" />
        <TextField label="Horário" mask="time" />
      </>,
    );
    const typed = async (label: string, text: string) => {
      const input = screen.getByLabelText(label) as HTMLInputElement;
      await user.type(input, text);
      return input.value;
    };
    expect(await typed('CPF', '52998224725')).toBe('529.982.247-25');
    expect(await typed('Celular', '11987654321')).toBe('(11) 98765-4321');
    expect(await typed('CEP', '01310100')).toBe('01.310-100');
    expect(await typed('CNPJ', '11222333000181')).toBe('11.222.333/0001-81');
    expect(await typed('Horário', '0930')).toBe('09:30');
  });

  it('toggles a password between hidden and shown', async () => {
    const user = userEvent.setup();
    render(<TextField label="Senha" type="password" />);
    const input = screen.getByLabelText('Senha') as HTMLInputElement;
    expect(input.type).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Mostrar senha' }));
    expect(input.type).toBe('text');
  });

  it('keeps money as cents divided by 100, shown in BRL', async () => {
    const user = userEvent.setup();
    const seen: number[] = [];
    function Harness() {
      const [value, setValue] = useState(0);
      return (
        <MoneyField
          label="Valor"
          value={value}
          onChange={(next) => {
            seen.push(next);
            setValue(next);
          }}
        />
      );
    }
    render(<Harness />);
    const input = screen.getByLabelText('Valor') as HTMLInputElement;
    await user.type(input, '3550');
    expect(seen.at(-1)).toBe(35.5);
    expect(input.value.replace(/\u00a0/g, ' ')).toBe('R$ 35,50');
  });

  it('refuses numbers out of bounds or too long', () => {
    expect(acceptsNumber('5', { minValue: 1, maxValue: 10 })).toBe(true);
    expect(acceptsNumber('11', { maxValue: 10 })).toBe(false);
    expect(acceptsNumber('0', { minValue: 1 })).toBe(false);
    expect(acceptsNumber('999', { maxLength: 2 })).toBe(false);
    expect(acceptsNumber('99', { maxLength: 2 })).toBe(true);
    expect(acceptsNumber('12a', {})).toBe(false);
    expect(acceptsNumber('99999999999', {})).toBe(false);
  });

  it('types only bounded numbers into a number field', async () => {
    const user = userEvent.setup();
    function Harness() {
      const [value, setValue] = useState<number | ''>('');
      return <NumberField label="Vagas" value={value} maxValue={50} onChange={setValue} />;
    }
    render(<Harness />);
    const input = screen.getByLabelText('Vagas') as HTMLInputElement;
    await user.type(input, '567');
    expect(input.value).toBe('5');
  });
});

describe('date picker', () => {
  it('writes weekdays Dom..Sab from Sunday and Portuguese month names', () => {
    render(<DatePicker value="2026-11-24" onChange={() => {}} />);
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Dom', 'Seg', 'Ter', 'Qua', 'Qui', 'Sex', 'Sab']);
    expect(screen.getByText('Novembro 2026')).toBeTruthy();
    const firstWeek = within(screen.getAllByRole('row')[1]).getAllByRole('button');
    expect(firstWeek[0].getAttribute('aria-label')).toBe('1 de novembro de 2026');
    expect(screen.getByRole('button', { name: '24 de novembro de 2026' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('disables every day outside the available list and moves across months', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DatePicker value={null} availableDates={['2026-12-01', '2026-12-03']} onChange={onChange} />);
    expect(screen.getByText('Dezembro 2026')).toBeTruthy();
    expect(screen.getByRole('button', { name: '2 de dezembro de 2026' }).hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('button', { name: '3 de dezembro de 2026' }));
    expect(onChange).toHaveBeenCalledWith('2026-12-03');
    await user.click(screen.getByRole('button', { name: 'Mês anterior' }));
    expect(screen.getByText('Novembro 2026')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Próximo mês' }));
    await user.click(screen.getByRole('button', { name: 'Próximo mês' }));
    expect(screen.getByText('Janeiro 2027')).toBeTruthy();
  });
});

describe('tooltip', () => {
  it('describes a disabled control and is absent when there is nothing to say', () => {
    const { rerender } = render(
      <Tooltip text="Escolha o cliente">
        <button type="button" disabled>
          Próximo
        </button>
      </Tooltip>,
    );
    expect(screen.getByRole('tooltip').textContent).toBe('Escolha o cliente');
    rerender(
      <Tooltip text={null}>
        <button type="button">Próximo</button>
      </Tooltip>,
    );
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
