/**
 * What `kasko documents …` do: the same documents the service answers, rendered by `@kasko/documents` and
 * written to a file (or standard output with `--out -`); a quote's from the service's database, linking where
 * the service's answers would.
 */
import { DocumentLinks, QuotingService, TariffBook } from "@kasko/core"
import { PdfDocuments } from "@kasko/documents"
import { Cause, Effect, Exit, Layer } from "effect"
import { writeFileSync } from "node:fs"
import { configuration, runOnStore } from "./AdminActions.js"
import { commandProducts, tariffBookOf } from "./ProductFolders.js"
import { type CommandResult, done, failed } from "./CommandResult.js"
import { messageOf } from "./FailureMessages.js"
import { apiRootOf, documentLinksOf } from "./ServiceConfig.js"

type Arguments = Readonly<Record<string, unknown>>

const text = (argv: Arguments, name: string): string => argv[name] as string

/** Writes the bytes where `--out` says; answers the note that says so. */
const written = (argv: Arguments, bytes: Uint8Array, what: string): CommandResult => {
  const out = text(argv, "out")
  if (out === "-") {
    process.stdout.write(bytes)
    return done("")
  }
  writeFileSync(out, bytes)
  return done("", `wrote ${what} to ${out} (${bytes.length} bytes)\n`)
}

/** The products the command prints the documents of: the shipped ones, and those of KASKO_PRODUCTS_DIR or --products. */
const tariffBookOfCommand = (argv: Arguments) => {
  const products = commandProducts(argv)
  return products === undefined ? TariffBook.shipped : tariffBookOf(products)
}

export const writeProductInformation = async (argv: Arguments): Promise<CommandResult> => {
  const exit = await Effect.runPromiseExit(
    QuotingService.getProductInformation(text(argv, "product"), text(argv, "variant")).pipe(
      Effect.provide(Layer.merge(tariffBookOfCommand(argv), PdfDocuments.layer()))
    )
  )
  if (Exit.isFailure(exit)) return failed("documents ipid", messageOf(Cause.squash(exit.cause)))
  return written(argv, exit.value.document.bytes, `the IPID of ${text(argv, "product")} ${text(argv, "variant")}`)
}

export const writePrivacyPolicy = async (argv: Arguments): Promise<CommandResult> => {
  const policy = await Effect.runPromise(QuotingService.getPrivacyPolicy.pipe(Effect.provide(PdfDocuments.layer())))
  return written(argv, policy.document.bytes, "the privacy policy")
}

export const writeQuoteDocument = async (argv: Arguments): Promise<CommandResult> => {
  const config = configuration()
  const document = await runOnStore(
    config,
    QuotingService.getQuoteDocument(text(argv, "partner"), text(argv, "quote")).pipe(
      Effect.provide(
        Layer.mergeAll(
          PdfDocuments.layer(),
          tariffBookOfCommand(argv),
          Layer.succeed(
            DocumentLinks.DocumentLinks,
            documentLinksOf(config, () => apiRootOf(config, config.port))
          )
        )
      )
    )
  )
  return written(argv, document.bytes, `quote ${text(argv, "quote")}'s document`)
}
