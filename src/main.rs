fn main() -> std::process::ExitCode {
    keyheat::cli::main()
}
