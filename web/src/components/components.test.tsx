import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { useState } from 'react';
import { Provider } from 'react-redux';
import { describe, expect, it, vi } from 'vitest';
import { makeStore } from '@/app/store';
import { companyItem, otherCompany, ownCompany, signedInSession } from '@/test/fixtures';
import { apiUrl, server } from '@/test/server';
import { ConfirmDialog } from './ConfirmDialog';
import { DatePicker } from './DatePicker';
import { LoadFailed } from './LoadFailed';
import { Modal } from './Modal';
import { MoneyField } from './MoneyField';
import { NumberField, acceptsNumber } from './NumberField';
import { Paginator } from './Paginator';
import { SearchableSelect, matchesOption } from './SearchableSelect';
import { UnitSelectField, useChosenUnit } from './staff/UnitSelect';
import { TextField } from './TextField';
import { placePopover } from './usePopoverPlacement';
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

describe('dialog focus', () => {
  function ModalHarness() {
    const [open, setOpen] = useState(false);
    const [confirming, setConfirming] = useState(false);
    return (
      <>
        <button type="button">Antes</button>
        <button type="button" onClick={() => setOpen(true)}>
          Abrir
        </button>
        <Modal open={open} title="Editar" onClose={() => setOpen(false)} footer={<button type="button">Salvar</button>}>
          <label>
            Nome <input />
          </label>
          <fieldset>
            <legend>Tipo</legend>
            <label>
              <input type="radio" name="kind" value="a" /> A
            </label>
            <label>
              <input type="radio" name="kind" value="b" /> B
            </label>
          </fieldset>
          <button type="button" disabled>
            Desativado
          </button>
          <div hidden>
            <button type="button">Oculto</button>
          </div>
          <button type="button" onClick={() => setConfirming(true)}>
            Excluir
          </button>
          <ConfirmDialog
            open={confirming}
            title="Excluir?"
            confirmLabel="Sim"
            onConfirm={() => setConfirming(false)}
            onCancel={() => setConfirming(false)}
          >
            Tem certeza?
          </ConfirmDialog>
        </Modal>
        <button type="button">Depois</button>
      </>
    );
  }

  it('moves focus into the modal, cycles Tab and Shift+Tab inside it, and returns it to the opener', async () => {
    const user = userEvent.setup();
    render(<ModalHarness />);
    const opener = screen.getByRole('button', { name: 'Abrir' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Editar' });
    expect(document.activeElement).toBe(dialog);

    const visited: (Element | null)[] = [];
    for (let press = 0; press < 40; press += 1) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
      if (press < 6) visited.push(document.activeElement);
    }
    // Fechar, Nome, one stop for the radio group, Excluir, Salvar, and round again.
    expect(visited).toEqual([
      screen.getByRole('button', { name: 'Fechar' }),
      screen.getByRole('textbox', { name: 'Nome' }),
      screen.getByRole('radio', { name: 'A' }),
      screen.getByRole('button', { name: 'Excluir' }),
      screen.getByRole('button', { name: 'Salvar' }),
      screen.getByRole('button', { name: 'Fechar' }),
    ]);

    screen.getByRole('button', { name: 'Fechar' }).focus();
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Salvar' }));
    for (let press = 0; press < 40; press += 1) {
      await user.tab({ shift: true });
      expect(dialog.contains(document.activeElement)).toBe(true);
    }

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('keeps focus in a confirmation over a modal, and Escape closes only the confirmation', async () => {
    const user = userEvent.setup();
    render(<ModalHarness />);
    await user.click(screen.getByRole('button', { name: 'Abrir' }));
    const remove = screen.getByRole('button', { name: 'Excluir' });
    remove.focus();
    await user.keyboard('{Enter}');
    const confirm = screen.getByRole('dialog', { name: 'Excluir?' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancelar' }));
    const seen = new Set<Element | null>();
    for (let press = 0; press < 10; press += 1) {
      await user.tab({ shift: press % 3 === 0 });
      seen.add(document.activeElement);
      expect(confirm.contains(document.activeElement)).toBe(true);
    }
    expect([...seen].map((element) => element?.textContent).sort()).toEqual(['Cancelar', 'Sim']);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Excluir?' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Editar' })).toBeTruthy();
    expect(document.activeElement).toBe(remove);
  });

  it('starts a confirmation on Cancelar and gives focus back when it closes', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    function Harness() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Sair
          </button>
          <ConfirmDialog open={open} title="Sair?" confirmLabel="Sim" onConfirm={onConfirm} onCancel={() => setOpen(false)}>
            Deseja sair?
          </ConfirmDialog>
        </>
      );
    }
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Sair' });
    await user.click(opener);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancelar' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Sim' }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancelar' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});

describe('confirm dialog', () => {
  it('offers an alternative between the confirmation and Cancelar, each with its own answer', async () => {
    const user = userEvent.setup();
    const answers: string[] = [];
    render(
      <ConfirmDialog
        open
        title="Valor do agendamento"
        confirmLabel="Manter R$ 45,00"
        alternative={{ label: 'Usar R$ 55,00', onChoose: () => answers.push('reprice') }}
        onConfirm={() => answers.push('keep')}
        onCancel={() => answers.push('cancel')}
      >
        O valor muda.
      </ConfirmDialog>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Valor do agendamento' });
    expect(within(dialog).getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Manter R$ 45,00',
      'Usar R$ 55,00',
      'Cancelar',
    ]);
    // The harmless choice has the focus.
    expect(document.activeElement?.textContent).toBe('Cancelar');
    for (const name of ['Manter R$ 45,00', 'Usar R$ 55,00', 'Cancelar']) await user.click(within(dialog).getByRole('button', { name }));
    expect(answers).toEqual(['keep', 'reprice', 'cancel']);
  });
});

describe('popover placement', () => {
  const screen1280 = { top: 0, left: 0, right: 1280, bottom: 800 };
  const menu = { width: 150, height: 120 };
  const anchorAt = (left: number, top: number) => ({ left, top, right: left + 30, bottom: top + 30 });

  it('opens below and leftward from the button when there is room', () => {
    expect(placePopover(anchorAt(600, 300), menu, screen1280)).toEqual({ up: false, start: false });
  });

  it('opens upward near the bottom of the screen', () => {
    expect(placePopover(anchorAt(600, 700), menu, screen1280)).toEqual({ up: true, start: false });
    // Not when there is even less room above.
    expect(placePopover(anchorAt(600, 40), { width: 150, height: 790 }, screen1280)).toEqual({ up: false, start: false });
  });

  it('grows rightward near the left edge, as on a 390 px phone or a narrow timeline column', () => {
    const phone = { top: 0, left: 0, right: 390, bottom: 844 };
    expect(placePopover(anchorAt(40, 300), menu, phone)).toEqual({ up: false, start: true });
    expect(placePopover(anchorAt(330, 800), menu, phone)).toEqual({ up: true, start: false });
    // Inside a clipping box narrower than the window (the timeline scrolled sideways).
    expect(placePopover(anchorAt(300, 300), menu, { top: 100, left: 280, right: 900, bottom: 700 })).toEqual({
      up: false,
      start: true,
    });
  });
});

describe('LoadFailed', () => {
  it('shows the text and retries', async () => {
    const user = userEvent.setup();
    const onRetry = vi.fn();
    render(<LoadFailed text="Não foi possível carregar o estoque." onRetry={onRetry} />);
    expect(screen.getByText('Não foi possível carregar o estoque.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});

describe('UnitSelectField', () => {
  function Shown() {
    const { unit } = useChosenUnit();
    return <p data-testid="unit">{unit ? unit.Name : 'nenhuma'}</p>;
  }

  function renderUnits(companies: ReturnType<typeof companyItem>[], onChosen?: (id: number) => void) {
    server.use(http.get(apiUrl('company'), () => HttpResponse.json(companies)));
    const store = makeStore({ session: signedInSession('ADMIN', { companies: [ownCompany, otherCompany] }) });
    render(
      <Provider store={store}>
        <UnitSelectField onChosen={onChosen} />
        <Shown />
      </Provider>,
    );
  }

  it('chooses another of the member units and tells the page', async () => {
    const user = userEvent.setup();
    const onChosen = vi.fn();
    renderUnits([companyItem(ownCompany, true), companyItem(otherCompany, true)], onChosen);
    const select = await screen.findByRole('combobox', { name: 'Unidade' });
    await screen.findByRole('option', { name: 'Navalha Praia' });
    expect((select as HTMLSelectElement).disabled).toBe(false);
    expect(screen.getByTestId('unit').textContent).toBe('Navalha Centro');

    await user.selectOptions(select, '2');
    expect(screen.getByTestId('unit').textContent).toBe('Navalha Praia');
    expect(onChosen).toHaveBeenCalledWith(2);
  });

  it('is disabled with a single member unit', async () => {
    renderUnits([companyItem(ownCompany, true), companyItem(otherCompany, false)]);
    await screen.findByRole('option', { name: 'Navalha Centro' });
    expect(screen.queryByRole('option', { name: 'Navalha Praia' })).toBeNull();
    expect((screen.getByRole('combobox', { name: 'Unidade' }) as HTMLSelectElement).disabled).toBe(true);
    expect(screen.getByTestId('unit').textContent).toBe('Navalha Centro');
  });
});
