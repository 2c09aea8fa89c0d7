#!/usr/bin/env bash
# Stages Debian's Open MPI (openmpi-bin, libopenmpi3) into DIR for a machine without MPI (the GPU
# machine): DIR/bin/mpirun, DIR/lib/x86_64-linux-gnu/openmpi/lib/openmpi3 (the MCA plugins, less
# the network transports a single node does not use), DIR/share/openmpi (help texts), DIR/pmix
# (PMIx's plugins) and DIR/libs (every library they load that a base system may lack).
# Open MPI finds all of it again when OPAL_PREFIX=DIR (its configure-time prefix /usr replaced);
# DIR/env.sh sets that and the rest. Usage: bench/gpu_openmpi.sh DIR
set -euo pipefail
o=$1
rm -rf "$o" && mkdir -p "$o"/bin "$o"/lib/x86_64-linux-gnu/openmpi/lib "$o"/share "$o"/libs "$o"/pmix
cp -L /usr/bin/orterun "$o"/bin/mpirun
cp -L /usr/bin/orted "$o"/bin/orted
plugins="$o"/lib/x86_64-linux-gnu/openmpi/lib/openmpi3
cp -rL /usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3 "$plugins"
# One node, shared memory: no InfiniBand, OFI, UCX or PSM transports.
rm -f "$plugins"/*{ucx,ofi,psm,openib,verbs,usnic,portals}*
cp -r /usr/share/openmpi "$o"/share/
cp -L /usr/lib/x86_64-linux-gnu/pmix2/lib/pmix/*.so "$o"/pmix/
for f in "$o"/bin/* /usr/lib/x86_64-linux-gnu/libmpi.so.40 "$plugins"/*.so "$o"/pmix/*.so; do
  ldd "$f"
done | awk '/=> \//{print $3}' | sort -u |
  grep -v -E '/(libc|libm|libpthread|libdl|librt|libstdc\+\+|libgcc_s)\.so' |
  while read -r lib; do cp -L "$lib" "$o"/libs/; done
cat > "$o"/env.sh <<'ENV'
# Sourced on the GPU machine: Open MPI from this folder, one node, as root.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX=$here PATH=$here/bin:$PATH LD_LIBRARY_PATH=$here/libs:${LD_LIBRARY_PATH:-}
export PMIX_MCA_mca_base_component_path=$here/pmix PMIX_MCA_pcompress_base_silence_warning=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_mca_base_component_show_load_errors=0 OMPI_MCA_rmaps_base_oversubscribe=1
ENV
du -sh "$o"
