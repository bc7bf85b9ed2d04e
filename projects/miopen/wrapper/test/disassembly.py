"""The machine code of a shared library as the wrapper's gates read it (objdump): the instructions
of each function, and the symbol each call or jump reaches, directly or through a GOT slot."""
import re
import subprocess


def functions(library):
    """{symbol: [instruction text]} for every function of the disassembly (the static symbol table
    too), without padding (nop, int3) and without endbr64."""
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", library], capture_output=True, text=True,
                         check=True).stdout
    bodies, current = {}, None
    for line in dis.splitlines():
        m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if m:
            current = m.group(1)
            bodies[current] = []
            continue
        if current and re.match(r"^\s+[0-9a-f]+:\s", line):
            insn = line.split(":", 1)[1].strip()
            if insn and "nop" not in insn and not insn.startswith("xchg   %ax,%ax") and insn != "int3" \
                    and not insn.startswith("endbr64"):
                bodies[current].append(insn)
    return bodies


def got_slots(library):
    """{address: symbol} of the library's dynamic relocations (GOT and PLT slots)."""
    out = subprocess.run(["objdump", "-R", library], capture_output=True, text=True, check=True).stdout
    slots = {}
    for line in out.splitlines():
        m = re.match(r"^([0-9a-f]+)\s+R_X86_64_(GLOB_DAT|JUMP_SLOT)\s+(\S+)", line)
        if m:
            slots[int(m.group(1), 16)] = m.group(3).split("@")[0]
    return slots


def target(insn, slots):
    """The symbol a call or jump reaches: `jmp <sym>` / `<sym@plt>` / `<sym+off>`, or an indirect
    `jmp *off(%rip)  # addr` through the GOT slot at addr; None for other instructions."""
    if not re.match(r"^(call|jmp)", insn):
        return None
    m = re.search(r"#\s*([0-9a-f]+)", insn)
    if "*" in insn and m:
        return slots.get(int(m.group(1), 16))
    m = re.search(r"<([^>+]+)", insn)
    return m.group(1).split("@")[0] if m else None
