import i18n from './index';
import { fieldErrorsEn } from './locales/field-errors.en';
import { fieldErrorsZhCN } from './locales/field-errors.zh-CN';

// The field-error texts join the translations with the forms that show them (this module is
// imported by api/field-errors.ts only), so the first screen does not carry them.
i18n.addResourceBundle('zh-CN', 'translation', fieldErrorsZhCN, true, false);
i18n.addResourceBundle('en', 'translation', fieldErrorsEn, true, false);
