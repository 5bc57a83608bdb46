/** A version's name that is also a safe file name: what the workbench saves a tariff's or a product's version as. */

const VERSION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/

/** Whether a version can name its file (`<version>.json`). */
export const namesAFile = (version: string): boolean => VERSION_NAME.test(version)

/** Why a version cannot name its file, or undefined. */
export const versionNameProblem = (version: string): string | undefined =>
  namesAFile(version) ? undefined : `version "${version}" must be letters, digits, ".", "_" or "-" (it names the file)`
