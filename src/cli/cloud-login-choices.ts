/**
 * The fixed values of `svc login -method=cloud` K=V options, apart from the method so the login command's
 * declaration (and with it completion) can offer them without loading the method.
 */
export const CLOUD_LOGIN_CHOICES = {
  type: ['iam', 'ec2'],
  document: ['rsa2048', 'pkcs7', 'identity'],
} as const;
