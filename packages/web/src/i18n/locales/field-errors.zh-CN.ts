// Texts of field errors, said from the server's machine codes (`field_codes`, see
// api/field-errors.ts), loaded with the forms that show them. `field-errors.en.ts` must have
// exactly the same keys.
export const fieldErrorsZhCN = {
  fieldErrors: {
    codes: {
      required: '请填写此字段',
      unknownField: '不支持的字段',
      invalidType: '格式不正确',
      notInteger: '请输入整数',
      invalidStep: '小数位数过多',
      tooSmall: '数值过小',
      tooBig: '数值过大',
      tooShort: '内容过短',
      tooLong: '内容过长',
      tooFew: '选择的项目过少',
      tooMany: '选择的项目过多',
      invalidChoice: '请选择有效的选项',
      invalidEmail: '请输入有效的邮箱地址',
      invalidPhone: '请输入有效的手机号码',
      invalidFormat: '格式不正确',
      invalidCharacter: '包含不允许的字符',
      forbiddenKey: '包含不允许的字段名',
      tooDeep: '数据嵌套层级过深',
      invalid: '内容无效',
      passwordMismatch: '密码不一致',
      commonPassword: '该密码过于常见，请换一个',
      passwordLikeAccount: '密码不能与邮箱或手机号相同',
      emailTaken: '该邮箱已被注册',
      phoneTaken: '该手机号码已被注册',
      invalidInvitationCode: '邀请码无效',
      invalidCode: '验证码无效或已过期',
      oldPasswordIncorrect: '原密码错误',
      unknownAccount: '交易所账户不存在',
      accountInactive: '该交易所账户已停用',
      accountCheckFailed: '该交易所账户最近一次连接检测失败',
      invalidGoogleCode: '谷歌验证码错误或已使用',
      unknownStrategy: '策略不存在',
      unknownSymbol: '该交易所不支持此交易对',
      unknownParameter: '未知的策略参数',
      unsupportedFormat: '不支持此文件格式',
    },
    rules: {
      passwordTooShort: '密码至少需要 {{min}} 位字符',
      passwordTooLong: '密码最多 {{max}} 位字符',
      codeFormat: '验证码为 {{length}} 位数字',
      tooLong: '最多 {{max}} 个字符',
      leverageRange: '杠杆倍数需在 {{min}} 到 {{max}} 之间',
      leverageWhole: '杠杆倍数必须为整数',
      paperBalanceRange: '模拟资金需在 {{min}} 到 {{max}} USDT 之间',
      twoDecimals: '最多保留两位小数',
      tradeAmountRange: '交易金额需在 {{min}} 到 {{max}} USDT 之间',
      stopLossRange: '止损比例需在 {{min}}% 到 {{max}}% 之间',
      takeProfitRange: '止盈比例需在 {{min}}% 到 {{max}}% 之间',
      dailyLossRange: '单日亏损上限需在 {{min}}% 到 {{max}}% 之间',
      trailingDrawdownRange: '回撤上限需在 {{min}}% 到 {{max}}% 之间',
      positiveAmount: '请输入大于 0 的 USDT 金额，留空表示不限',
    },
  },
} as const;

type Widen<T> = { readonly [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
/** The shape every language must fill. */
export type FieldErrorsLocaleResources = Widen<typeof fieldErrorsZhCN>;
