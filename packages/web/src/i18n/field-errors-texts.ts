import i18n from './index';
import { fieldErrorsEn } from './locales/field-errors.en';
import { fieldErrorsZhCN } from './locales/field-errors.zh-CN';

// The field-error texts, imported by api/field-errors.ts only. api/errors.ts says a validation
// answer by its first field's code, so they load with the first screen (about 1.8 KB gzip).
i18n.addResourceBundle('zh-CN', 'translation', fieldErrorsZhCN, true, false);
i18n.addResourceBundle('en', 'translation', fieldErrorsEn, true, false);
