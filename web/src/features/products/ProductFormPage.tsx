import { yupResolver } from '@hookform/resolvers/yup';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { Form, FormButtons, FormSection } from '@/components/form/Form';
import { FormPageFrame, FormPagePending } from '@/components/form/FormPageFrame';
import { CheckboxField } from '@/components/form/fields';
import { MoneyField } from '@/components/MoneyField';
import { TextField } from '@/components/TextField';
import { useIdempotencyKey } from '@/lib/idempotency';
import { notifySuccess } from '@/lib/notify';
import { useAppSelector } from '@/state/hooks';
import { selectRoleType } from '@/state/sessionSlice';
import { PRODUCTS_PATH } from './ProductListPage';
import { useCreateProductMutation, useGetProductQuery, useUpdateProductMutation } from './productsApi';
import { EMPTY_PRODUCT, mayEditProducts, PRODUCT_NAME_MAX, productPayload, productSchema, productValues, type ProductFormValues } from './schema';
import type { Product } from './types';
import './products.css';

const FRAME = { listPath: PRODUCTS_PATH, className: 'product-form-page' };

export const CREATED_MESSAGE = 'Produto cadastrado com sucesso!';
export const UPDATED_MESSAGE = 'Produto atualizado com sucesso!';

/** /dashboard/product/new and /dashboard/product/{idProduct}. */
export default function ProductFormPage() {
  const { idProduct = 'new' } = useParams();
  const id = /^\d+$/.test(idProduct) ? Number(idProduct) : null;
  const { data: product, isError } = useGetProductQuery(id ?? 0, { skip: id === null });

  if (id !== null && !product) {
    return <FormPagePending {...FRAME} title="Produto" isError={isError} />;
  }
  return <ProductForm key={id ?? 'new'} product={product ?? null} />;
}

function ProductForm({ product }: { product: Product | null }) {
  const navigate = useNavigate();
  const canEdit = mayEditProducts(useAppSelector(selectRoleType));
  const withKey = useIdempotencyKey();
  const form = useForm<ProductFormValues>({
    resolver: yupResolver(productSchema),
    defaultValues: product ? productValues(product) : EMPTY_PRODUCT,
  });
  const {
    register,
    control,
    formState: { errors, isSubmitting },
  } = form;
  const [createProduct] = useCreateProductMutation();
  const [updateProduct] = useUpdateProductMutation();

  const save = async (values: ProductFormValues) => {
    const payload = productPayload(values);
    if (product) {
      await updateProduct({ id: product.IdProduct, payload }).unwrap();
      notifySuccess(UPDATED_MESSAGE);
    } else {
      await withKey((idempotencyKey) => createProduct({ payload, idempotencyKey }).unwrap(), JSON.stringify(payload));
      notifySuccess(CREATED_MESSAGE);
    }
    navigate(PRODUCTS_PATH);
  };

  return (
    <FormPageFrame {...FRAME} title={product ? 'Produto' : 'Novo produto'}>
      <Form form={form} onSubmit={save} aria-label="Dados do produto">
        {/* Only ADMIN changes products; the others read them. */}
        <fieldset className="product-fields" disabled={!canEdit}>
          <FormSection title="Produto">
            <TextField
              label="Nome"
              className="field-wide"
              autoComplete="off"
              maxLength={PRODUCT_NAME_MAX}
              error={errors.name?.message}
              {...register('name')}
            />
            <Controller
              control={control}
              name="price"
              render={({ field, fieldState }) => (
                <MoneyField label="Preço" value={field.value} onChange={field.onChange} error={fieldState.error?.message} disabled={!canEdit} />
              )}
            />
            <CheckboxField label="Ativo" {...register('active')} />
          </FormSection>
        </fieldset>
        {canEdit && (
          <FormButtons>
            <button type="submit" className="button button-primary" disabled={isSubmitting}>
              Salvar
            </button>
          </FormButtons>
        )}
      </Form>
    </FormPageFrame>
  );
}
